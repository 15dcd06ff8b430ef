"""Prints awpy 3.1.1's graph of Source 2 .nav files as the digests `navigation.rs` compares with.

awpy (MIT, https://github.com/pnxenopoulos/awpy) is the public CS2 reader the navigation graph
must agree with. For each file: the area count, the number of distinct neighbours over all areas,
an FNV-1a 64 hash of every area's id, corner count, corners (f32 bits), neighbour count and
neighbour ids in file order, and the sums of the centroids weighted by `index % 7 + 1`.

    python3 -m venv /tmp/awpy && /tmp/awpy/bin/pip install awpy==3.1.1
    /tmp/awpy/bin/python awpy_digest.py ../../../../shared/corpus/source2/*.nav

Paste the lines into `AWPY` in `navigation.rs`.
"""
import struct, sys, glob, os
import awpy

def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

for path in sorted(sys.argv[1:]):
    try:
        nav = awpy.NavMesh(path)
    except Exception as e:
        print(f"// {os.path.basename(path)}: awpy refuses: {e}")
        continue
    ids = nav.areas["area_id"].to_list()
    buf = bytearray()
    edges = 0
    sums = [0.0, 0.0, 0.0]
    for i, aid in enumerate(ids):
        a = nav.area(aid)
        buf += struct.pack("<II", aid, len(a["corners"]))
        for c in a["corners"]:
            buf += struct.pack("<fff", *c)
        buf += struct.pack("<I", len(a["connections"]))
        for c in a["connections"]:
            buf += struct.pack("<I", c)
        edges += len(a["connections"])
        w = i % 7 + 1
        for k in range(3):
            sums[k] += a["centroid"][k] * w
    print(f'("{os.path.basename(path)}", {len(ids)}, {edges}, 0x{fnv(buf):016x}, [{sums[0]!r}, {sums[1]!r}, {sums[2]!r}]),')
