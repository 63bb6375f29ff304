"""Gallery management: rename and delete a saved derivation.

``PATCH /api/derivations/{id}`` with ``{"title": "..."}`` renames (one line, at most 200
characters); ``DELETE /api/derivations/{id}`` removes it. Both answer 404 for an unknown id.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from veristep.core.errors import InputError
from veristep.web.store import MAX_TITLE

router = APIRouter(prefix="/api")


class RenameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    title: str = Field(max_length=10 * MAX_TITLE)


@router.patch("/derivations/{ident}")
def rename(ident: str, body: RenameRequest, request: Request) -> dict[str, Any]:
    store = request.app.state.store
    try:
        found = store.rename(ident, body.title)
    except ValueError as exc:
        raise InputError(str(exc), kind="title") from None
    if not found:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    return store.get(ident).summary()


@router.delete("/derivations/{ident}")
def delete(ident: str, request: Request) -> dict[str, Any]:
    if not request.app.state.store.delete(ident):
        raise HTTPException(404, f"no saved derivation {ident!r}")
    return {"deleted": ident}
