"""Prior-bias benchmark for UML class diagrams (paper 002): do models read the arrow,
or answer from what the class names suggest?"""
