"""Offline baseline models: classical computer vision and OCR, no network."""
