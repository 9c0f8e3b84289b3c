"""The image policy: images sent as they are unless asked, shrunk to fit when asked,
and described in the records by size and sha256."""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pytest
from PIL import Image

from diagbench.models.image_policy import ImagePolicy, ImagePolicyError, describe
from diagbench.models.request import ImagePart


def png(width: int, height: int, noise: bool = False) -> ImagePart:
    if noise:
        pixels = np.random.default_rng(7).integers(0, 256, (height, width, 3), dtype=np.uint8)
        image = Image.fromarray(pixels)
    else:
        image = Image.new("RGB", (width, height), "white")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return ImagePart(buffer.getvalue(), "image/png", "diagram.png")


def test_no_policy_and_fitting_images_are_sent_byte_for_byte():
    part = png(3000, 1000)
    assert ImagePolicy().apply(part) is part
    assert ImagePolicy(max_side=3000, max_bytes=len(part.data)).apply(part) is part


def test_max_side_scales_the_longer_side_and_keeps_the_aspect_ratio():
    part = png(3000, 1000)
    small = ImagePolicy(max_side=1200).apply(part)
    with Image.open(io.BytesIO(small.data)) as image:
        assert image.size == (1200, 400) and image.format == "PNG"
    record = describe(small)
    assert record == {"path": "diagram.png", "media_type": "image/png", "width": 1200,
                      "height": 400, "bytes": len(small.data),
                      "sha256": hashlib.sha256(small.data).hexdigest(),
                      "resized_from": [3000, 1000, len(part.data)]}
    assert describe(part)["resized_from"] is None


def test_max_bytes_shrinks_until_the_png_fits():
    part = png(400, 300, noise=True)  # noise does not compress: ~360 kB
    assert len(part.data) > 300_000
    small = ImagePolicy(max_bytes=50_000).apply(part)
    assert len(small.data) <= 50_000
    with Image.open(io.BytesIO(small.data)) as image:
        width, height = image.size
    assert width < 400 and abs(width / height - 4 / 3) < 0.02
    assert width * height * 3 > 50_000 * 0.5  # not shrunk far beyond what was needed


def test_unreadable_or_unfittable_images_are_errors_naming_the_file():
    with pytest.raises(ImagePolicyError, match=r"diagram\.txt: not a readable image"):
        ImagePolicy(max_side=100).apply(ImagePart(b"@startuml\n", "text/plain", "diagram.txt"))
    with pytest.raises(ImagePolicyError, match=r"diagram\.png: cannot fit in 100 bytes"):
        ImagePolicy(max_bytes=100).apply(png(400, 300, noise=True))


def test_size_limits_yield_to_a_shrink_but_the_bomb_guard_does_not(tmp_path, monkeypatch):
    from diagbench.models import image_policy
    path = tmp_path / "wide.png"
    Image.new("L", (20_000, 300), "white").save(path)
    assert "over the limit of 16,384 px" in image_policy.image_problem(path)
    assert image_policy.image_problem(path, ImagePolicy(max_side=4096)) is None
    assert image_policy.image_problem(path, ImagePolicy(max_bytes=100_000)) is None
    assert "over the limit" in image_policy.image_problem(path, ImagePolicy(max_side=20_000))
    # the guard, lowered below this image's 6 MP: refused whatever the policy, by name
    monkeypatch.setattr(image_policy, "BOMB_PIXELS", 5_000_000)
    problem = image_policy.image_problem(path, ImagePolicy(max_side=1024))
    assert "20000×300 px (6 MP): refused as a possible decompression bomb" in problem
