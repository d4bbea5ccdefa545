"""Finding the domains of a project: ``tests_domains/<name>/domain.py`` defines ``DOMAIN``."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from ._domain import AnyDomain, Domain, DomainError

__all__ = ["discover_domains", "domain_names", "load_domain"]

DOMAINS_PACKAGE = "tests_domains"


def _project_root(start: Path) -> Path:
    for candidate in (start, *start.parents):
        if (candidate / DOMAINS_PACKAGE).is_dir():
            return candidate
    raise DomainError(f"no {DOMAINS_PACKAGE}/ folder in {start} or above")


def load_domain(name: str, root: Path | None = None) -> AnyDomain:
    """Import ``tests_domains.<name>.domain`` and return its ``DOMAIN``."""
    root = _project_root((root or Path.cwd()).resolve())
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    module = importlib.import_module(f"{DOMAINS_PACKAGE}.{name}.domain")
    domain = getattr(module, "DOMAIN", None)
    if not isinstance(domain, Domain):
        raise DomainError(f"{module.__file__}: must define DOMAIN = Domain(...)")
    return domain


def domain_names(root: Path | None = None) -> list[str]:
    """The names of the project's domains, sorted, without importing any."""
    base = _project_root((root or Path.cwd()).resolve())
    return sorted(p.parent.name for p in (base / DOMAINS_PACKAGE).glob("*/domain.py"))


def discover_domains(root: Path | None = None) -> dict[str, AnyDomain]:
    """Every domain of the project, by name, sorted."""
    base = _project_root((root or Path.cwd()).resolve())
    return {name: load_domain(name, base) for name in domain_names(base)}
