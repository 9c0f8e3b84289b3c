"""`diagbench view` (issue 32, item 1) in a real browser: Debian's Chromium driven by
Selenium through chromium-driver. The page of real runs (the SADU-shaped fixture's logs
under SADU's scorer: model-a right on 6 of 8, by hand in tests/sadu_fixture.py; an
offline structure run) loads from file:// and from the server on 127.0.0.1, a filter
changes the rows, a sample opens with its image; 100,000 samples page and filter."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from diagbench.report.view import SampleView, write_view
from tests.sadu_fixture import run_cli, write_sadu

A = "model-a_response_t_0"




@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("view")
    sadu = write_sadu(root / "sadu")
    logs = sorted((sadu / "experiment_result" / "response_result" / "default").glob("*.log"))
    assert run_cli("import", "sadu", str(sadu / "dataset" / "SAD"), "--out", "data",
                cwd=root).returncode == 0
    done = run_cli("score", "archqa", "--data", "data", "--responses", *map(str, logs),
                "--scorer", "sadu", "--out", "qa", cwd=root)
    assert done.returncode == 0, done.stderr
    for args in (("build", "structure", "--model", "baseline:synth", "--out", "st",
                  "--per-category", "1", "--categories", "class"),
                 ("eval", "structure", "--data", "st", "--model", "baseline:synth",
                  "--out", "st-run")):
        done = run_cli(*args, cwd=root)
        assert done.returncode == 0, done.stderr
    return root


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1400,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def _count(driver) -> tuple[int, int]:
    shown, total = re.match(r"(\d+) of (\d+) samples",
                            driver.find_element(By.ID, "count").text).groups()
    return int(shown), int(total)


def _rows(driver) -> list[list[str]]:
    return [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in driver.find_elements(By.CSS_SELECTOR, "#rows tr")]


def test_the_static_copy_opens_offline_filters_and_opens_a_sample(runs, browser):
    done = run_cli("view", "qa", "st-run", "--out", "page", cwd=runs)
    assert done.returncode == 0, done.stderr
    browser.get((runs / "page" / "index.html").as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rows tr"))
    tasks = (runs / "st" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    assert _count(browser) == (16 + len(tasks),) * 2  # the archqa answers and structure's
    total = 16 + len(tasks)
    Select(browser.find_element(By.ID, "f-model")).select_by_value(A)
    rows = _rows(browser)
    assert _count(browser) == (8, total) and {r[1] for r in rows} == {A}
    assert [r[6] for r in rows].count("right") == 6  # SADU's scorer: 75 % of 8, by hand
    Select(browser.find_element(By.ID, "f-correct")).select_by_value("no")
    assert _count(browser)[0] == 2
    Select(browser.find_element(By.ID, "f-correct")).select_by_value("")
    browser.find_element(By.ID, "f-text").send_keys("login_flow/2")
    WebDriverWait(browser, 10).until(lambda d: _count(d)[0] == 1)
    browser.find_element(By.CSS_SELECTOR, "#rows tr").click()
    detail = browser.find_element(By.ID, "detail")
    assert "behavioral/login_flow/2" in detail.text and "[start]" in detail.text
    image = detail.find_element(By.TAG_NAME, "img")
    with Image.open(runs / "sadu" / "dataset" / "SAD" / "behavior" / "Diagram" /
                    "login_flow.png") as drawn:  # the image asked about, shown as it is
        assert browser.execute_script("return arguments[0].naturalWidth", image) == drawn.width


def test_the_served_page_is_on_loopback_and_loads(runs, browser):
    server = subprocess.Popen([sys.executable, "-m", "diagbench", "view", "qa", "--port", "0"],
                              cwd=runs, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        browser.get(url.group(0))
        WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rows tr"))
        assert _count(browser) == (16, 16)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_hundred_thousand_samples_page_and_filter(tmp_path, browser):
    views = (SampleView("bench", f"model-{k % 4}", f"s{k}", f"task-{k % 7}", "cat", "ok",
                        f"prompt {k % 50}", None, f"answer {k}", str(k), str(k),
                        correct=k % 3 == 0, score=k / 100_000) for k in range(100_000))
    assert write_view(views, tmp_path / "big", "big") == 100_000
    browser.get((tmp_path / "big" / "index.html").as_uri())
    WebDriverWait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rows tr"))
    assert _count(browser) == (100_000, 100_000) and len(_rows(browser)) == 100
    Select(browser.find_element(By.ID, "f-model")).select_by_value("model-1")
    assert _count(browser)[0] == 25_000
    browser.find_element(By.ID, "f-text").send_keys("answer 99997")
    WebDriverWait(browser, 30).until(lambda d: _count(d)[0] == 1)
    assert _rows(browser)[0][2] == "s99997"


def test_the_filtered_rows_give_their_accuracy_and_each_sample_its_link(runs, browser):
    """model-a is right on 6 of the 8 fixture questions (tests/sadu_fixture.py): the
    filtered set's accuracy is 75.0 %; a structure run's tasks filter by language; a
    sample's link opens it."""
    assert run_cli("view", "qa", "st-run", "--out", "linked", cwd=runs).returncode == 0
    browser.get((runs / "linked" / "index.html").as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rows tr"))
    Select(browser.find_element(By.ID, "f-model")).select_by_value(A)
    figures = browser.find_element(By.ID, "figures").text
    assert figures.startswith("accuracy 75.0 % (6 of 8)"), figures
    Select(browser.find_element(By.ID, "f-model")).select_by_value("")
    languages = [o.get_attribute("value") for o in
                 Select(browser.find_element(By.ID, "f-language")).options]
    assert "plantuml" in languages
    tasks = [line for line in (runs / "st" / "tasks.jsonl").read_text().splitlines()
             if '"language": "plantuml"' in line]
    Select(browser.find_element(By.ID, "f-language")).select_by_value("plantuml")
    assert _count(browser)[0] == len(tasks)
    link = browser.find_element(By.CSS_SELECTOR, "#rows tr a").get_attribute("href")
    first_id = _rows(browser)[0][2]
    browser.get("about:blank")
    browser.get(link)
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "detail").is_displayed())
    assert first_id in browser.find_element(By.ID, "detail").text
