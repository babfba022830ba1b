"""The web app (``tablezoo serve``): watch and play every game in a browser, served locally.

``server`` is the Starlette app and the command, ``sessions`` the games it keeps and what each
browser may see of them, ``replay`` whole games as positions (seeded games between agents,
recorded evaluation and tournament games) and as GIF/MP4, ``static/`` the page (plain HTML, JS
and CSS, no CDN).
"""
