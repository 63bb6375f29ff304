"""The web app: derive and check pages, a gallery of saved derivations, the chat agent, JSON API.

``create_app(settings, db_path)`` (in :mod:`veristep.web.app`) builds the FastAPI application;
``veristep serve`` runs it with uvicorn.
"""
