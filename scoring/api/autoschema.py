"""The schema class of the API (``DEFAULT_SCHEMA_CLASS``): ``scoring.api.schema``'s, with a
view's ``pagination_class`` applied to its GET lists only. A view that both lists (GET) and
creates several rows at once (a POST answering the rows it drew) declares a paged GET and a
bare 201 array."""

from __future__ import annotations

from scoring.api.schema import AutoSchema as BaseAutoSchema


class AutoSchema(BaseAutoSchema):
    def _get_paginator(self):
        if self.method != "GET":
            return None
        return super()._get_paginator()
