"""The record every game keeps, and what proves it: events recorded with their
audiences and hash chain (recording, chain), the dice nobody chose (rng, entropy),
the audit and offline verification (audit, verify, signatures), old records read
by new code (upcast), and the schemas written from the declared events (schemas,
schemagen). The rules' vocabulary is the kernel above; rendering is the client's
(arbiter.render, arbiter.answers)."""
