"""Engines' random SVG ids made steady: bpmn-js' marker names numbered in the order they
are defined, Plotly's figure id made 000000 where it names or points at an element, and
nothing else touched."""

from __future__ import annotations

from diagbench.render.svg_ids import steady_markers, steady_plotly

A = b"a" * 25
B = b"0123456789abcdefghijklmno"


def test_bpmn_markers_are_numbered_in_the_order_they_are_defined():
    svg = (b'<marker id="marker-' + B + b'"/><marker id="marker-' + A + b'"/>'
           b'<path style="marker-end: url(\'#marker-' + A + b'\');"/>'
           b'<path style="marker-end: url(\'#marker-' + B + b'\');"/>'
           b'<text>marker-short</text>')
    assert steady_markers(svg) == (
        b'<marker id="marker-1"/><marker id="marker-2"/>'
        b'<path style="marker-end: url(\'#marker-2\');"/>'
        b'<path style="marker-end: url(\'#marker-1\');"/>'
        b'<text>marker-short</text>')


def test_plotlys_figure_id_is_steady_in_ids_and_references_only():
    svg = (b'<svg><defs id="defs-42a92c"><clipPath id="clip42a92cxyplot"/></defs>'
           b'<g clip-path="url(#clip42a92cxyplot)"/><g id="legend42a92c"/>'
           b'<g clip-path="url(\'#clip42a92cx\')"/><text fill="#42a92c">42a92c</text></svg>')
    assert steady_plotly(svg) == (
        b'<svg><defs id="defs-000000"><clipPath id="clip000000xyplot"/></defs>'
        b'<g clip-path="url(#clip000000xyplot)"/><g id="legend000000"/>'
        b'<g clip-path="url(\'#clip000000x\')"/><text fill="#42a92c">42a92c</text></svg>')


def test_plotlys_root_attributes_are_in_name_order():
    """plotly.js sets `viewBox` and `style` in either order: both orders write alike."""
    one = b'<svg class="main-svg" width="700" viewBox="0 0 700 500" style=""><g/></svg>'
    other = b'<svg class="main-svg" width="700" style="" viewBox="0 0 700 500"><g/></svg>'
    expected = b'<svg class="main-svg" style="" viewBox="0 0 700 500" width="700"><g/></svg>'
    assert steady_plotly(one) == steady_plotly(other) == expected


def test_an_svg_without_the_engines_ids_is_left_as_it_is():
    svg = b'<svg><defs id="defs"/><marker id="marker-1"/></svg>'
    assert steady_markers(svg) == svg and steady_plotly(svg) == svg
    odd = b"<svg width='1'><g/></svg>"  # attributes not all in double quotes: as they are
    assert steady_plotly(odd) == odd
