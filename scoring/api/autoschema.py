"""The schema class of the API (``DEFAULT_SCHEMA_CLASS``): ``scoring.api.schema``'s, with a
view's ``pagination_class`` (``scoring.api.pagination``) applied to its GET lists only, each
of them declaring the 400 of a cursor or a page size refused. A view that both lists (GET)
and makes several rows at once (a POST answering the rows it drew) declares a paged GET and a
bare array for the POST's answer."""

from __future__ import annotations

from scoring.api.schema import AutoSchema as BaseAutoSchema
from scoring.api.schema import ref


class AutoSchema(BaseAutoSchema):
    def _get_paginator(self):
        if self.method != "GET":
            return None
        return super()._get_paginator()

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if self._get_paginator() is not None and self._is_list_view() and "400" not in responses:
            responses["400"] = {
                "description": "",  # the 400's own, filled in by scoring.api.schema
                "content": {"application/json": {"schema": ref("ErrorResponse")}},
            }
        return responses
