"""qr: QR / Micro QR codes (segno), barcodes and decoding (zxing-cpp)."""
