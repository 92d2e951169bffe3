"""An executed notebook as one self-contained HTML page, inputs hidden (``nbconvert --no-input``).

The page reads offline: math is converted to MathML when the page is built (:mod:`sparseact.publish.mathtext`)
instead of being typeset by MathJax from a CDN, and the template loads no script (require.js, MathJax, mermaid,
widgets); figures are embedded as data URIs. A claim page (:func:`sparseact.publish.report.claim_page`) is this page
under its statuses; ``sparseact run-notebook --html`` writes it beside the executed notebook.
"""

from __future__ import annotations

import copy
import re

from jinja2 import DictLoader, pass_context
from nbconvert import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from sparseact.publish.display import PAGE_CSS
from sparseact.publish.mathtext import MathRenderError, find_unrendered, tex_to_mathml

#: The page template: JupyterLab's ``lab`` template without its remote scripts, plus
#: :data:`sparseact.publish.display.PAGE_CSS` (badges, tables, figures).
_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_css -%}<style type="text/css">{{ resources.sparseact_css }}</style>{%- endblock html_head_css -%}
"""


def _title(nb) -> str:
    """The text of the notebook's first level-1 heading (the claim's name), TeX reduced to plain text."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    plain = re.sub(r"\\[A-Za-z]+\s*", "", line[2:])
                    return re.sub(r"[${}]", "", plain).strip()
    return "sparseact notebook"


def notebook_html(nb) -> str:
    """The executed notebook ``nb`` as one self-contained HTML page, inputs hidden.

    Markdown math (``$...$``, ``$$...$$``) in cells and in ``text/markdown``
    outputs becomes MathML (:func:`sparseact.publish.mathtext.tex_to_mathml`); the page
    title is the notebook's first heading.

    Raises
    ------
    sparseact.publish.mathtext.MathRenderError
        When a formula cannot be rendered, or TeX is left unrendered in the page.
    """

    class MathMLRenderer(IPythonRenderer):
        def inline_math(self, body: str) -> str:
            return tex_to_mathml(body)

        def block_math(self, body: str) -> str:
            return tex_to_mathml(body, display=True)

        def latex_environment(self, name: str, body: str) -> str:
            raise MathRenderError(f"LaTeX environment {name!r} in markdown: use $$...$$")

    class OfflineHTMLExporter(HTMLExporter):
        @pass_context
        def markdown2html(self, context, source):
            cell = context.get("cell", {})
            renderer = MathMLRenderer(
                escape=False,
                attachments=cell.get("attachments", {}),
                embed_images=self.embed_images,
                anchor_link_text=self.anchor_link_text,
                exclude_anchor_links=self.exclude_anchor_links,
                **self.lexer_options,
            )
            return MarkdownWithMath(renderer=renderer).render(source)

    exporter = OfflineHTMLExporter(
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        extra_loaders=[DictLoader({"sparseact.html.j2": _TEMPLATE})],
        template_file="sparseact.html.j2",
    )
    nb = copy.deepcopy(nb)
    nb.metadata["title"] = _title(nb)
    body, _ = exporter.from_notebook_node(nb, resources={"sparseact_css": PAGE_CSS})
    leftover = find_unrendered(body)
    if leftover:
        raise MathRenderError(f"TeX left unrendered in the page: {leftover[:3]}")
    return body
