"""docs/architecture.md fits on three screens and matches the code.

Its layer diagram is tests/test_layers.py's order, each module it lists sits in the layer it is drawn in, and every
path, ``sparseact.`` name, code name, rule, command and config key it quotes exists; it names every rule of the
workflow; and every reference to one of its sections, in the repository, names one.
"""

import builtins
import importlib
import re
from pathlib import Path

import pytest
from test_layers import LAYERS, MODULES, layer

REPO = Path(__file__).resolve().parents[1]
TEXT = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
#: Three screens of 40 lines, none wider than 100 characters (so a line renders as one).
MAX_LINES, MAX_WIDTH = 120, 100
#: What a placeholder of a quoted path stands for when the path is looked up.
PLACEHOLDERS = {"<id>": "lemma9", "<claim>": "lemma9", "<shard>": "*", "<name>": "*", "<digest>": "*"}

_FENCED = re.compile(r"^```\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
_PROSE = _FENCED.sub("", TEXT)
#: The quoted spans of the prose, fenced blocks aside.
QUOTED = re.findall(r"`([^`\n]+)`", _PROSE)
#: The code the quoted names are looked up in: the package, the Snakefile and the rules.
CODE = "\n".join(
    path.read_text(encoding="utf-8")
    for path in [*sorted((REPO / "src").rglob("*.py")), REPO / "Snakefile", *sorted((REPO / "workflow").rglob("*.smk"))]
)
RULES = set(re.findall(r"^(?:rule|checkpoint) (\w+):", CODE, re.MULTILINE))
COMMANDS = set(re.findall(r"add_parser\(\s*\"([\w-]+)\"", (REPO / "src" / "sparseact" / "cli.py").read_text()))


def test_it_fits_on_three_screens():
    lines = TEXT.splitlines()
    assert len(lines) <= MAX_LINES
    assert [line for line in lines if len(line) > MAX_WIDTH] == []


def _diagram() -> dict[str, list[str]]:
    """Layer name -> the ``;``-separated parts of its entry in the diagram, top to bottom."""
    block = next(block for block in _FENCED.findall(TEXT) if block.startswith("entry points"))
    layers: dict[str, list[str]] = {}
    for line in block.splitlines():
        if line.strip() == "|":
            continue
        if not line.startswith(" "):
            name, _, line = re.split(r"(\s{2,})", line, maxsplit=1)
            layers[name] = []
        layers[name].extend(part.strip() for part in line.split(";") if part.strip())
    return layers


def test_the_diagram_draws_the_layers_of_the_layer_test():
    assert list(_diagram()) == [name for name, _ in reversed(LAYERS)]


def _drawn_modules():
    """``(layer name, module or path)`` for everything the diagram lists."""
    for name, parts in _diagram().items():
        for part in parts:
            match = re.match(r"(sparseact(?:\.\w+)*)(:?)\s*(.*)", part)
            if match and not match[2]:
                yield name, match[1]
                continue
            package, items = (match[1], match[3]) if match else ("sparseact", part)
            for item in re.sub(r"\(.*?\)", "", items).split(","):
                item = re.sub(r"/(<\w+>)?$", "", item.strip())
                if item.startswith("<") or item == "...":
                    continue
                yield name, item if not match and name != "core" else f"{package}.{item}"


@pytest.mark.parametrize(("name", "drawn"), list(_drawn_modules()))
def test_each_module_drawn_sits_in_its_layer(name, drawn):
    if "." not in drawn or "/" in drawn:  # a path of the entry points
        assert list(REPO.glob(drawn)), drawn
    else:
        assert drawn in MODULES and LAYERS[layer(drawn)][0] == name


def _path(quoted: str) -> str | None:
    """The glob a quoted repository path stands for (``None`` when ``quoted`` is no path)."""
    if " " in quoted or "/" not in quoted or quoted.startswith(("-", "sparseact.")):
        return None
    for placeholder, value in PLACEHOLDERS.items():
        quoted = quoted.replace(placeholder, value)
    return quoted.rstrip("/")


@pytest.mark.parametrize("quoted", sorted({q for q in QUOTED if _path(q)}))
def test_every_quoted_path_exists(quoted):
    """A source path exists in the checkout; an output of the run (``results/``, ``figures/``) is one that a rule
    writes (its pattern in ``in_results``/``in_figures``) or that the rules name."""
    output = re.match(r"(results|figures)/(.*)", quoted.rstrip("/"))
    if output is None:
        assert list(REPO.glob(_path(quoted))), quoted
        return
    pattern = re.sub(r"<(\w+)>", r"{\1}", output[2])
    assert f'"{pattern}"' in CODE or quoted in CODE, quoted


@pytest.mark.parametrize("quoted", sorted({q for q in QUOTED if re.fullmatch(r"sparseact(\.\w+)+", q)}))
def test_every_quoted_sparseact_name_exists(quoted):
    module = quoted
    while module not in MODULES:
        module = module.rpartition(".")[0]
    value = importlib.import_module(module)
    for attribute in quoted.removeprefix(module).split(".")[1:]:
        value = getattr(value, attribute)


def _code_names():
    """The code names quoted in the prose: an identifier with ``_`` or a capital, or a call ``name(...)``."""
    for quoted in QUOTED:
        for name in re.findall(r"(?<![\w./-])([A-Za-z_]\w*)(?=\(|$|\s*=)", quoted):
            if ("_" in name or not name.islower()) and not hasattr(builtins, name) and name != "FILE":
                yield name


@pytest.mark.parametrize("name", sorted(set(_code_names())))
def test_every_quoted_code_name_is_in_the_code(name):
    assert re.search(rf"\b{name}\b", CODE), name


def test_it_names_every_rule_of_the_workflow():
    assert RULES and {rule for rule in RULES if f"`{rule}`" not in TEXT} == set()


def test_every_command_and_config_key_it_quotes_exists():
    commands = re.findall(r"\bsparseact ([a-z][\w-]+)", TEXT.replace("\n", " "))
    assert commands and set(commands) <= COMMANDS
    keys = re.findall(r"--config (\w+)=", TEXT)
    schema = (REPO / "src" / "sparseact" / "schemas" / "config.schema.yaml").read_text()
    assert keys and all(re.search(rf"^\s+{key}:", schema, re.MULTILINE) for key in keys)


def test_every_reference_to_a_section_names_one():
    headings = re.findall(r"^#+ (.*)$", TEXT, re.MULTILINE)
    cited = set()
    for path in [*REPO.glob("src/**/*"), *REPO.glob("tests/*.py"), *REPO.glob("docs/*.md"), REPO / "README.md"]:
        if path.is_file() and path.suffix in {".py", ".md", ".yaml", ".tmpl"}:
            cited |= set(re.findall(r"architecture\.md[\"']?, [\"'(]*([A-Z][\w ]+)", path.read_text(errors="ignore")))
    assert cited and {section for section in cited if not any(section.lower() in h.lower() for h in headings)} == set()
