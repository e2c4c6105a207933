"""The web app of ``quintet serve``: a JSON API mirroring the command line, and a page for players.

The top layer: it may import every other layer (the command line's report
functions, so that the API returns the same JSON documents as ``--json``);
nothing imports it.  The ``serve`` command reaches it through the
``quintet.commands`` entry point (:mod:`solver.web.command`).  FastAPI and
uvicorn come with the ``web`` extra: ``pip install "quintet-solver[web]"``.
"""
