"""Open a static HTML report in headless Chromium (Debian's) and report what loaded."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

#: Marks the page's body with how many images it has and which did not load.
_CHECK = """<script>
const images = [...document.images];
images.forEach(img => { img.loading = "eager"; });  // before load: the load event waits
window.addEventListener("load", () => {
  const broken = images.filter(img => !(img.complete && img.naturalWidth > 0));
  document.body.setAttribute("data-check",
    `images=${images.length} broken=${broken.map(i => i.getAttribute("src")).join(",")}`);
});
</script></body>"""


def flags(profile: Path) -> list[str]:
    """Chromium's options for a headless, offline, throw-away session."""
    return ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
            "--virtual-time-budget=10000"]


def loaded_images(page: Path, profile: Path) -> tuple[int, list[str]]:
    """(images on `page`, the sources of those that did not load) once Chromium has
    loaded it; AssertionError when the page never finished loading, twice (on a busy
    machine Chromium's virtual time can run out before the load event)."""
    checked = page.with_name(page.stem + "_check.html")
    checked.write_text(page.read_text(encoding="utf-8").replace("</body>", _CHECK),
                       encoding="utf-8")
    marker = None
    for attempt in range(2):
        dom = subprocess.run(["chromium", *flags(profile.with_name(f"{profile.name}-{attempt}")),
                              "--dump-dom", checked.as_uri()],
                             capture_output=True, text=True, timeout=120, check=True).stdout
        marker = re.search(r'data-check="images=(\d+) broken=([^"]*)"', dom)
        if marker:
            break
    assert marker, "the page did not finish loading"
    return int(marker.group(1)), [s for s in marker.group(2).split(",") if s]
