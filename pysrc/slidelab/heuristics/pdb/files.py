"""Pattern-database files, the cache folder, and the tables in memory.

File format (one file per group, `<rows>x<cols>_<cells>.slpdb`): the magic `SLPDB2\\n`, a 4-byte little-endian
header length, a JSON header {"rows", "cols", "cells", "entries", "crc32"}, then, compressed with zlib, the
*excess* of each entry over the group's Manhattan distance, halved (it is always even, and mostly 0 or 1, so it
compresses to about 1.5 MB for a 6-tile table of the 15-puzzle, against 2.4 MB for the values themselves). Loading
rebuilds the Manhattan distances with `bytes.translate` and adds them back with one big-integer addition: no Python
loop over the entries, so it is quick in the browser too.

The CLI keeps every table it builds in the cache folder, small ones too (rebuilding the 3x3 tables took most of an easy
solve's time); the browser fetches the site's files and `install`s them. The package itself carries the files of the 4x4
and 3x4 standard tables and the 15-puzzle's 7-7-1 ones (PACKAGED, the ones the site serves, 21.8 MB): a table missing
from the cache folder (or damaged there) is copied from there before anything is built, so the first 15-puzzle solve of
a fresh install answers at once.

The large ranked tables ("pdb78" and "pdb771": 7 and 8 tiles, `<rows>x<cols>_<cells>.ranked.slpdb`) have their own
magic, `SLPDB3\n`, and the same header with "index": "ranked" (and "blank", the goal's blank cell, when it is not
cell 0: the dual lookups' tables, `<rows>x<cols>_<cells>_b<cell>.ranked.slpdb`): the halved excesses, indexed by rank
(placement_index.py), are packed two to a byte (4 bits each, capped at 15: a smaller entry is still a lower bound)
before zlib: 6.9 MB for the 7-tile table of the 15-puzzle. Reading and writing them is pure Python (the Manhattan
distances by rank come from placement_index.manhattan_by_rank, or numpy where it is installed; a file is decoded one
block of them at a time, so a browser worker's memory peaks at little more than the table); building them needs
numpy. The map file holds the decoded bytes as for every table. The browser does not decode them: it packs the
body as it inflates it (`PackedTable`, about a quarter of a byte an entry: a base a block of 64 entries and 2 bits
an entry over it), which the search reads with each group's Manhattan distance added back; a file is read from the
page a CHUNK at a time. A file of the other format, or damaged, is refused with
the reason.

Beside each file the CLI also keeps the decoded table (`.map`: the magic `SLPDBMAP1\n`, the entries and the crc32 of
the table as 8 + 4 bytes, then the table itself) and maps it into memory instead of decoding the file again: decoding
the 15-puzzle's tables took 0.55 s of every command, a mapped table costs nothing until its pages are read, and every
process that maps it (parallel workers, batch workers) shares one copy of those pages. A map file is written whole or
not at all, and used only when its size and checksum field agree with its `.slpdb` file's header (a rebuilt or
damaged pair is decoded and mapped again), and whose bytes still have that checksum: a map file whose table was
changed after it was written, by whatever, is refused and written again from its `.slpdb` file. The crc32 is
computed once a process maps the table: about 0.3 ms a megabyte from the page cache, 34 ms for the 7-7-1 tables and
about 170 ms for the 7-8 ones (docs/benchmarks.md).
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import zlib

try:
    import mmap

    HAVE_MMAP = True
except ImportError:  # a runtime without it (the browser's): tables are decoded into memory
    HAVE_MMAP = False

from slidelab.core.errors import MissingData
from slidelab.core.extras import installed, require
from slidelab.heuristics.pdb.frames import (
    MAX_CELLS,
    MAX_RANKED_CELLS,
    PACKED_BLOCK,
    PACKED_SHIFT,
    QUICK_BUILD_PATTERNS,
    group_manhattan,
    is_ranked,
    parse_table_name,
    placements,
    table_blank,
    table_name,
)
from slidelab.heuristics.pdb.placement_index import manhattan_blocks, manhattan_by_rank

MAGIC = b"SLPDB2\n"
RANKED_MAGIC = b"SLPDB3\n"
CAP = 15  # the largest halved excess a ranked table's 4 bits hold
MAP_MAGIC = b"SLPDBMAP1\n"
MAP_HEADER = struct.Struct("<QI")  # entries, crc32 of the table
ENV_DIR = "SLIDELAB_PDB_DIR"
PACKAGED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data", "pdb")

ZLIB_MAX_RATIO = 1032  # deflate never expands data more than this: a body shorter than its table / 1032 is cut short

CHUNK = 1 << 22  # bytes of a file read (and, in the browser, copied from the page) at a time
_TABLES: dict[str, bytes | bytearray] = {}  # loaded or built tables by file name
_DAMAGED: dict[str, str] = {}  # cache files found damaged (and not replaced from the package): name -> the problem
_CHANGED: list[str] = []  # map files whose table changed after they were written, not said yet (changed_files)


BLOCK_BYTES = PACKED_BLOCK // 2  # the bytes of a file's body that a packed table's block comes from


class PackedTable(bytearray):
    """A ranked table held in about a quarter of a byte an entry: the entries' halved excesses over the group's
    Manhattan distance, as the file gives them, each read as the least of its block of PACKED_BLOCK entries (`bases`,
    a byte a block) plus 2 bits (four entries a byte, the first rank in the low bits) of what it exceeds that by, at
    most 3. An entry that exceeds its block's least by more comes back smaller: still a lower bound (on the
    15-puzzle's 7-8 tables, 0.35% of the 8-tile table's entries; 0.3% more positions searched, docs/benchmarks.md).
    The search adds the Manhattan distance back from the tiles' moves (search/pdb_idastar.py)."""

    def __init__(self, entries):
        super().__init__((entries + 3) // 4)
        self.entries = entries
        self.bases = bytearray((entries + PACKED_BLOCK - 1) // PACKED_BLOCK)

    def entry(self, rank) -> int:
        """The halved excess at `rank` (at most the file's)."""
        return self.bases[rank >> PACKED_SHIFT] + (self[rank >> 2] >> (rank << 1 & 6) & 3)

    def fill(self, start, piece) -> None:
        """Take `piece`, the file body's bytes (two 4-bit entries each) from byte `start` (a multiple of
        BLOCK_BYTES) on, a whole number of blocks but at the body's end. Big-integer arithmetic on a lane of every
        block at a time (the blocks' k-th bytes): no Python loop over the entries, so the browser packs a 7-8 set as
        it inflates it."""
        piece = bytes(piece)
        if self.entries & 1 and start + len(piece) > self.entries // 2:  # the body's last nibble is no entry
            piece = piece[:-1] + bytes([piece[-1] | 0xF0])
        piece += b"\xff" * (-len(piece) % BLOCK_BYTES)  # padding never lowers a block's least
        blocks = len(piece) // BLOCK_BYTES
        lanes = [piece[k::BLOCK_BYTES] for k in range(BLOCK_BYTES)]
        least = lanes[0].translate(_LEAST)
        for lane in lanes[1:]:  # the nibbles of two bytes side by side: no carries
            least = ((int.from_bytes(least, "little") << 4) + int.from_bytes(lane.translate(_LEAST), "little")
                     ).to_bytes(blocks, "little").translate(_LEAST)
        first = start // BLOCK_BYTES
        self.bases[first:first + blocks] = least[:len(self.bases) - first]
        both = int.from_bytes(least, "little") * 17  # the least under both nibbles of every byte
        codes = [(int.from_bytes(lane, "little") - both).to_bytes(blocks, "little").translate(_TWO_CODES)
                 for lane in lanes]  # every nibble is at least its block's least: no borrows
        at = start // 2
        for k in range(0, BLOCK_BYTES, 2):
            where = range(at + k // 2, min(at + blocks * BLOCK_BYTES // 2, len(self)), BLOCK_BYTES // 2)
            pair = int.from_bytes(codes[k], "little") + (int.from_bytes(codes[k + 1], "little") << 4)
            self[where.start:where.stop:where.step] = pair.to_bytes(blocks, "little")[:len(where)]


_LEAST = bytes(min(v & 15, v >> 4) for v in range(256))
_TWO_CODES = bytes(min(v & 15, 3) | min(v >> 4, 3) << 2 for v in range(256))


HOLD_PACKED = sys.platform == "emscripten"  # the browser holds the ranked tables it is given packed


def _ranked_manhattan(rows, cols, cells) -> bytes:
    """The group's Manhattan distance at every rank: with numpy where it is installed, else in pure Python."""
    return manhattan_by_rank(rows, cols, cells, installed("numpy"))


_CAPPED = bytes(min(v, CAP) for v in range(256))
_LOW, _HIGH = bytes(v & 15 for v in range(256)), bytes(v >> 4 for v in range(256))
_ODD = bytes(v & 1 for v in range(256))


def encode_ranked(rows, cols, cells, table, blank=0):
    """(the file bytes, the table as the file restores it) of a ranked table (one byte per rank, bytes-like; the
    goal's blank on cell `blank`): an entry whose excess is capped comes back smaller, still a lower bound.
    Big-integer arithmetic on whole tables, as for the direct ones: no Python loop over the entries."""
    values = bytes(table)
    size = len(values)
    if size != placements(rows * cols, len(cells)):
        raise ValueError(f"a ranked table for {len(cells)} tiles on {rows}x{cols} has "
                         f"{placements(rows * cols, len(cells))} entries")
    if max(values) >= 128:
        raise ValueError("a table entry is too large")
    md = int.from_bytes(_ranked_manhattan(rows, cols, cells), "little")
    bias = int.from_bytes(b"\x80" * size, "little")
    # 128 + entry - distance in every byte: no carries nor borrows, so each byte says whether its entry is sound
    shifted = int.from_bytes(values, "little") + bias - md
    as_bytes = shifted.to_bytes(size, "little")
    if min(as_bytes) < 128 or max(as_bytes.translate(_ODD)):
        raise ValueError("a table entry is below its Manhattan distance or of the other parity")
    excess = ((shifted - bias) >> 1).to_bytes(size, "little")  # every byte even: no bit crosses into the next one
    capped = size - sum(excess.count(bytes([v])) for v in range(CAP + 1))
    excess = excess.translate(_CAPPED)
    restored = ((int.from_bytes(excess, "little") << 1) + md).to_bytes(size, "little")
    if size & 1:
        excess += b"\0"
    packed = (int.from_bytes(excess[0::2], "little") + (int.from_bytes(excess[1::2], "little") << 4)).to_bytes(
        len(excess) // 2, "little")
    fields = {"rows": rows, "cols": cols, "cells": list(cells), "entries": size, "index": "ranked", "bits": 4,
              "capped": capped, "crc32": zlib.crc32(restored)}
    if blank:  # older files have none: the blank's goal is cell 0
        fields["blank"] = blank
    header = json.dumps(fields, sort_keys=True).encode()
    return RANKED_MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(packed, 6), restored


class _Inflater:
    """The inflated body of a file read from `reader` (a binary file) a CHUNK at a time."""

    def __init__(self, reader):
        self.reader, self.stream, self.tail = reader, zlib.decompressobj(), b""

    def take(self, n) -> bytes:
        """The next n inflated bytes (fewer only where the body ends)."""
        parts, got = [], 0
        while got < n and not self.stream.eof:
            if not self.tail:
                self.tail = self.reader.read(CHUNK)
                if not self.tail:
                    break
            piece = self.stream.decompress(self.tail, n - got)
            self.tail = self.stream.unconsumed_tail
            parts.append(piece)
            got += len(piece)
        return b"".join(parts)

    def ended(self) -> bool:
        """Whether the body is whole (zlib checked its checksum) and nothing follows it."""
        if self.take(1):
            return False
        return self.stream.eof and not self.tail and not self.stream.unused_data and not self.reader.read(1)


def _ranked_body(inflater, header, rows, cols, cells, length, packed) -> bytearray:
    """The table of a ranked file's body (see encode_ranked): as a PackedTable (the body itself), or decoded a block
    of the Manhattan distances at a time (placement_index.manhattan_blocks), each block's packed bytes inflated as it
    needs them: the peak is about the table and a sixteenth of it, not six tables' worth of temporaries."""
    if header.get("index") != "ranked" or header.get("bits") != 4:
        raise ValueError("its header describes no ranked table of 4-bit entries")
    size = placements(rows * cols, len(cells))
    if header["entries"] != size:
        raise ValueError("its table has the wrong size")
    if length is not None and length * ZLIB_MAX_RATIO < (size + 1) // 2:  # checked before the table's memory is taken
        raise ValueError("it is too short for its table (cut short)")
    cut = "its table has the wrong size (the file is damaged or cut short)"
    if packed:
        held, body = PackedTable(size), (size + 1) // 2
        step = max(BLOCK_BYTES, CHUNK - CHUNK % BLOCK_BYTES)  # whole blocks at a time
        for at in range(0, body, step):
            piece = inflater.take(min(step, body - at))
            if len(piece) != min(step, body - at):
                raise ValueError(cut)
            held.fill(at, piece)
        return held
    table = bytearray(size)
    packed_bytes, first = b"", 0  # packed bytes not yet used up, from entry `first` (even) on
    end = 0
    for block in manhattan_blocks(rows, cols, cells, installed("numpy")):
        begin, end = end, end + len(block)
        want = (end + 1) // 2 - first // 2 - len(packed_bytes)
        if want > 0:
            more = inflater.take(want)
            if len(more) != want:
                raise ValueError(cut)
            packed_bytes += more
        nibbles = bytearray(2 * len(packed_bytes))
        nibbles[0::2] = packed_bytes.translate(_LOW)
        nibbles[1::2] = packed_bytes.translate(_HIGH)
        excess = nibbles[begin - first:end - first]
        table[begin:end] = ((int.from_bytes(excess, "little") << 1) + int.from_bytes(block, "little")).to_bytes(
            len(block), "little")
        used = (end - first) // 2
        packed_bytes, first = packed_bytes[used:], first + 2 * used
    return table


def encode(rows, cols, cells, table: bytes) -> bytes:
    """The file bytes for a table (deterministic: the same table always gives the same bytes)."""
    size = len(table)
    if size != (rows * cols) ** len(cells):
        raise ValueError(f"a table for {len(cells)} tiles on {rows}x{cols} has {(rows * cols) ** len(cells)} entries")
    md = int.from_bytes(group_manhattan(rows, cols, cells), "little")
    if int.from_bytes(table, "little") < md:
        raise ValueError("a table entry is below its Manhattan distance")
    # every entry is at least its Manhattan distance and of the same parity, so the bytes subtract without borrows
    # and halve without a bit crossing into the next byte
    excess = ((int.from_bytes(table, "little") - md) >> 1).to_bytes(size, "little")
    if ((int.from_bytes(excess, "little") << 1) + md).to_bytes(size, "little") != table:
        raise ValueError("a table entry is below its Manhattan distance or of the other parity")
    header = json.dumps({"rows": rows, "cols": cols, "cells": list(cells), "entries": size,
                         "crc32": zlib.crc32(table)}, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(excess, 9)


def decode(data, packed=False) -> tuple[str, bytes | bytearray]:
    """(table name, table) from a file's bytes, or a binary file to read them from a CHUNK at a time; a ranked table
    as a PackedTable when `packed`. MissingData if the bytes are not a sound pattern-database file."""
    length: int | None
    table: bytes | bytearray
    try:
        if isinstance(data, (bytes, bytearray, memoryview)):
            length, reader = len(data), io.BytesIO(data)
        elif hasattr(data, "read"):
            length, reader = getattr(data, "size", None), data
        else:
            raise TypeError(f"a file's bytes are expected, not {type(data).__name__}")
        head = reader.read(len(MAGIC) + 4)
        ranked = head.startswith(RANKED_MAGIC)
        if not (ranked or head.startswith(MAGIC)) or len(head) < len(MAGIC) + 4:
            raise ValueError("not a Slide Lab pattern-database file (or one of an older format)")
        (hlen,) = struct.unpack_from("<I", head, len(MAGIC))
        if hlen > 1 << 16:
            raise ValueError("its header is too long")
        header = json.loads(reader.read(hlen))
        rows, cols, cells = int(header["rows"]), int(header["cols"]), tuple(int(c) for c in header["cells"])
        blank = int(header.get("blank", 0))
        if not (1 <= rows and 1 <= cols and rows * cols <= (MAX_RANKED_CELLS if ranked else MAX_CELLS)
                and 0 < len(cells) < rows * cols and 0 <= blank < rows * cols
                and ("blank" not in header or blank not in cells)
                and len(set(cells)) == len(cells) and all(0 <= c < rows * cols for c in cells)):
            raise ValueError("its header describes no valid table")
        inflater = _Inflater(reader)
        body = None if length is None else length - len(head) - hlen
        if ranked:
            table = _ranked_body(inflater, header, rows, cols, cells, body, packed)
            name = table_name(rows, cols, cells, ranked=True, blank=blank)
        else:
            size = (rows * cols) ** len(cells)
            excess = inflater.take(size)
            if len(excess) != header["entries"] or len(excess) != size:
                raise ValueError("its table has the wrong size")
            md = int.from_bytes(group_manhattan(rows, cols, cells), "little")
            table = ((int.from_bytes(excess, "little") << 1) + md).to_bytes(size, "little")
            name = table_name(rows, cols, cells)
        if not inflater.ended():
            raise ValueError("its table has the wrong size")
        # a packed table's body was checked by zlib's own checksum, the decoded table here
        if not isinstance(table, PackedTable) and zlib.crc32(table) != header["crc32"]:
            raise ValueError("its checksum does not match (the file is damaged)")
    except (ValueError, KeyError, TypeError, OverflowError, struct.error, zlib.error) as e:
        raise MissingData(f"bad pattern-database file: {e}", reason="bad_table", problem=str(e)) from None
    except MemoryError:
        raise MissingData("bad pattern-database file: its table does not fit in this runtime's memory",
                          reason="bad_table", problem="too large") from None
    return name, table


def install(data) -> str:
    """Keep a table given as file bytes, or a binary file to read them from (the browser's fetched file), in memory;
    returns its name. A ranked table is held packed where HOLD_PACKED says so."""
    name, table = decode(data, packed=HOLD_PACKED)
    _TABLES[name] = table
    return name


def cache_dir() -> str:
    """Where the CLI keeps built tables: $SLIDELAB_PDB_DIR, else the user's cache folder."""
    if os.environ.get(ENV_DIR):
        return os.environ[ENV_DIR]
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = os.environ["LOCALAPPDATA"]
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "slidelab", "pdb")


def _read(path):
    """A file's bytes, or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _write(path, data) -> None:
    """Write a file whole or not at all (through a temporary file beside it)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _header(path):
    """The JSON header of a pattern-database file, or None when it has none that can be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + 4)
            if len(head) < len(MAGIC) + 4 or not head.startswith((MAGIC, RANKED_MAGIC)):
                return None
            (hlen,) = struct.unpack_from("<I", head, len(MAGIC))
            return json.loads(f.read(min(hlen, 4096)))
    except (OSError, ValueError):
        return None


def _map_path(path) -> str:
    return (path[:-len(".slpdb")] if path.endswith(".slpdb") else path) + ".map"


def _mapped(path):
    """The decoded table of the pattern-database file at `path`, mapped read-only from its map file, or None when
    there is no map file that agrees with the file's header."""
    header = _header(path) if HAVE_MMAP else None
    if not isinstance(header, dict):
        return None
    try:
        with open(_map_path(path), "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    start = len(MAP_MAGIC) + MAP_HEADER.size
    if len(mapped) >= start and mapped[:len(MAP_MAGIC)] == MAP_MAGIC:
        entries, crc = MAP_HEADER.unpack_from(mapped, len(MAP_MAGIC))
        body = memoryview(mapped)[start:]
        if entries == header.get("entries") == len(body) and crc == header.get("crc32"):
            if zlib.crc32(body) == crc:
                return body
            _CHANGED.append(_map_path(path))  # changed since it was written: decoded again, and said
        body.release()
    mapped.close()
    return None


def _keep_mapped(path, table):
    """Write the map file of a decoded table and return the table mapped from it (the table itself when the
    folder cannot be written or this runtime cannot map files)."""
    if not HAVE_MMAP:
        return table
    try:
        _write(_map_path(path), MAP_MAGIC + MAP_HEADER.pack(len(table), zlib.crc32(table)) + table)
    except OSError:
        return table
    mapped = _mapped(path)
    return table if mapped is None else mapped


def _quick(name, rows, cols, cells) -> bool:
    """Whether a table is built on the spot when needed: a small direct one (ranked ones only on request)."""
    return placements(rows * cols, len(cells)) <= QUICK_BUILD_PATTERNS and not is_ranked(name)


def _encoded(name, rows, cols, cells, table):
    """(the file bytes, the table as the file restores it), in the format the table's name says."""
    if is_ranked(name):
        return encode_ranked(rows, cols, cells, table, table_blank(name))
    return encode(rows, cols, cells, table), table


def load(name, rows, cols, cells, directory=None, may_build=False, progress=None, dask=None):
    """The table from memory, the cache folder (mapped, see above), or (if `may_build` or small) a fresh build
    saved to the folder; None when it is none of these. A ranked table is built on a Dask cluster when `dask` is
    given ({"scheduler", "workers"}, see builder_numpy.build_ranked_dask)."""
    table = _TABLES.get(name)
    if table is not None:
        return table
    path = os.path.join(cache_dir() if directory is None else directory, name)
    table = _mapped(path)
    if table is not None:
        _TABLES[name] = table
        return table
    for packaged in (False, True):  # the cache folder's file, else the package's (which also replaces a damaged one)
        data = _read(os.path.join(PACKAGED, name) if packaged else path)
        if data is None:
            continue
        try:
            _, table = decode(data)
        except MissingData as e:
            _DAMAGED.setdefault(name, e.details["problem"])
            continue
        _DAMAGED.pop(name, None)
        if packaged:  # kept in the cache folder, and mapped from there
            try:
                _write(path, data)
            except OSError:
                pass
        table = _keep_mapped(path, table)
        break
    if table is None:
        if not (may_build or _quick(name, rows, cols, cells)):
            return None
        if is_ranked(name):
            require("building the large pattern databases", "numpy", extra="build")
            from slidelab.space.pdb_builder_numpy import build_ranked_dask, build_ranked_numpy  # build time only
            blank = table_blank(name)
            table = (build_ranked_numpy(rows, cols, cells, progress, blank) if dask is None
                     else build_ranked_dask(rows, cols, cells, progress=progress, blank=blank, **dask))
        else:
            from slidelab.space.pdb_builder import build  # only a missing table pays for importing it

            table = build(rows, cols, cells, progress)
        data, table = _encoded(name, rows, cols, cells, table)
        _DAMAGED.pop(name, None)
        try:
            _write(path, data)
        except OSError:
            pass  # a read-only cache only costs a rebuild next time
        else:
            table = _keep_mapped(path, table)
    _TABLES[name] = table
    return table


def changed_files() -> list[str]:
    """The map files this process found changed since they were written (and wrote again), each said once."""
    found = list(_CHANGED)
    _CHANGED.clear()
    return found


def damaged(name) -> str | None:
    """What is wrong with the cache folder's file of a table found damaged (and not replaced from the package), or
    None."""
    return _DAMAGED.get(name)


def is_ready(name, rows, cols, cells, directory=None) -> bool:
    """Whether a table is in memory, in the cache folder or the package (and not found damaged), or small enough to
    build at once."""
    folder = cache_dir() if directory is None else directory
    return (name in _TABLES or (name not in _DAMAGED and any(os.path.isfile(os.path.join(d, name))
                                                           for d in (folder, PACKAGED)))
            or _quick(name, rows, cols, cells))


def ensure_table(name, rows, cols, cells, directory=None, progress=None, dask=None) -> None:
    """Load the table into memory, building it (and saving it in the cache folder) if need be."""
    load(name, rows, cols, cells, directory, may_build=True, progress=progress, dask=dask)


def write_files(names, directory, progress=None) -> list[str]:
    """Build (or reuse) the tables of these file names (heuristic.plan's, or the names a pattern_databases answer
    gives) and write them as files into `directory`; returns their paths. The site build serves them to the
    browser; OSError if the folder cannot be written."""
    paths = []
    for name in names:
        rows, cols, cells = parse_table_name(name)
        table = load(name, rows, cols, cells, may_build=True, progress=progress)  # from memory or the cache folder
        # the cache file is already encoded (compressing again costs seconds per table)
        data = _read(os.path.join(cache_dir(), name)) or _encoded(name, rows, cols, cells, table)[0]
        path = os.path.join(directory, name)
        if _read(path) != data:
            _write(path, data)
        paths.append(path)
    return paths
