"""The web side: pages for spectators, replays and seats, and the JSON gateway.

``service.web.server`` runs it; ``service.web.backend`` is its only way into
the game service (gRPC over the server's private socket); ``gateway`` and
``openapi`` serve every ``GameService`` call as JSON; ``pages`` draws the
game's own presentation vocabulary (``aggregates.kernel.present``) as HTML.
"""
