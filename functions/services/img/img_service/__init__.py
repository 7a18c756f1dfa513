"""img: image facts and transforms with Pillow."""
