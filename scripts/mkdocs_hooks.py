"""mkdocs hooks (mkdocs.yml): docs/news.md and docs/contributing.md show the repository's
NEWS.md and CONTRIBUTING.md, with their links as the site has them (docs/X.md is X.md there,
the root's Markdown files are their pages, other files of the repository lie beside site/)."""
import re
from pathlib import Path

INCLUDED = {"news.md": "NEWS.md", "contributing.md": "CONTRIBUTING.md"}
PAGE_OF = {root: page for page, root in INCLUDED.items()} | {"README.md": "index.md"}


def relink(m):
    target = m.group(2)
    if target.startswith("docs/"):
        target = target[len("docs/"):]
    elif target in PAGE_OF:
        target = PAGE_OF[target]
    elif not re.match(r"[a-z]+:|#", target):
        target = "../" + target
    return f"{m.group(1)}({target})"


def on_page_markdown(markdown, page, config, files):
    root = INCLUDED.get(page.file.src_path)
    if root is None:
        return markdown
    text = (Path(config["config_file_path"]).parent / root).read_text()
    return re.sub(r"(\[[^\]]*\])\(([^)\s]+)\)", relink, text)
