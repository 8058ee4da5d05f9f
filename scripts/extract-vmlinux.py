#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""extract-vmlinux.py BZIMAGE OUT: the kernel's ELF image from a bzImage.

As the kernel's scripts/extract-vmlinux does (which Debian's headers do
not ship): find the payload's compression by its magic, decompress it,
keep it if it is an ELF file.  For the base BTF of module_btf
(scripts/lib.sh), whose .BTF section it has.  Exit 1 if no payload is
found.
"""
import bz2
import os
import lzma
import sys
import zlib

MAGICS = [
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\x1f\x8b\x08", "gzip"),
    (b"BZh", "bzip2"),
]


def decompress(data, kind):
    if kind == "xz":
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data)
    if kind == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    if kind == "bzip2":
        return bz2.BZ2Decompressor().decompress(data)
    raise ValueError(kind)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract-vmlinux.py BZIMAGE OUT")
    data = open(sys.argv[1], "rb").read()
    for magic, kind in MAGICS:
        pos = data.find(magic)
        while pos >= 0:
            try:
                out = decompress(data[pos:], kind)
            except (ValueError, OSError, EOFError, lzma.LZMAError, zlib.error):
                out = b""
            if out.startswith(b"\x7fELF"):
                with open(sys.argv[2] + ".tmp", "wb") as f:
                    f.write(out)
                os.rename(sys.argv[2] + ".tmp", sys.argv[2])
                return
            pos = data.find(magic, pos + 1)
    sys.exit("extract-vmlinux.py: no ELF payload found in " + sys.argv[1])


if __name__ == "__main__":
    main()
