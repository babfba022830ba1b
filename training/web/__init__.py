"""The web app (``tablezoo serve``): watch and play every game in a browser, served locally.

``server`` is the Starlette app and the command, ``sessions`` the games it keeps and what each
browser may see of them, ``seats`` who may play a seat (registry agents and models offered by
name, never a path from a request), ``request_checks`` the Host, Origin, token and body checks,
``limits`` every bound of a request's work, ``worker`` the threads the agents think in,
``errors`` the refusals, ``replay`` whole games as positions (seeded games between agents,
recorded evaluation and tournament games) and as GIF/MP4, ``static/`` the page (plain HTML, JS
and CSS, no CDN).
"""
