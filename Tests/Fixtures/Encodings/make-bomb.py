"""Writes zeros-8GiB.gz.gz: 8 GiB of zero bytes, gzip-compressed twice (about 13 KB).

Served with `Content-Encoding: gzip, gzip`, it is what a hostile server can send to make a client that decodes content
codings spend many seconds of CPU on one response. The bytes are deterministic (no file name, mtime 0).
"""

import gzip
import io
import pathlib

GIB = 1 << 30


def gzip_bytes(chunks):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as stream:
        for chunk in chunks:
            stream.write(chunk)
    return buffer.getvalue()


def main():
    zeros = bytes(64 << 20)
    inner = gzip_bytes(zeros for _ in range(8 * GIB // len(zeros)))
    outer = gzip_bytes([inner])
    pathlib.Path(__file__).with_name("zeros-8GiB.gz.gz").write_bytes(outer)
    print(len(inner), len(outer))


if __name__ == "__main__":
    main()
