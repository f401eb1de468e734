"""Table options: validated per game with pydantic, refused with a message that names the option."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

Model = TypeVar("Model", bound=BaseModel)


class OptionsModel(BaseModel):
    """Base for every game's options: unknown names are refused, values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class OptionsError(ValueError):
    """A bad option set; the message names the option and what it accepts."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


def parse_options(model: type[Model], raw: Mapping[str, Any] | None) -> Model:
    try:
        return model.model_validate(dict(raw or {}))
    except ValidationError as error:
        first = error.errors()[0]
        name = ".".join(str(part) for part in first["loc"]) or "options"
        if first["type"] == "extra_forbidden":
            raise OptionsError(f"unknown option {name!r}", name) from None
        raise OptionsError(f"option {name!r}: {first['msg']}", name) from None


def options_dict(options: BaseModel) -> dict[str, Any]:
    return options.model_dump(mode="json")
