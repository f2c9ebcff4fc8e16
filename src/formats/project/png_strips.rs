//! A PNG writer for the big RGB layers (a 16x16 map's ground is 8192² texels) that codes on
//! every core: the rows are cut into strips of `STRIP_ROWS`, and each strip is filtered (each
//! row by the PNG filter whose output has the smallest sum of magnitudes, as libpng chooses)
//! and coded as a deflate block of its own, with Huffman codes built from its own counts, of
//! literals and of runs of a repeated byte (distance 1). A sync flush ends each strip, so the
//! strips join byte-aligned into the one zlib stream that PNG holds. Runs never cross a strip,
//! and a strip's first row is filtered by sub alone, so each strip also decodes on its own: a
//! private chunk (`gwST`) says so, and `read_png_rgb_strips` then inflates and unfilters the
//! strips on every core (any other PNG, or any failed check, goes to the general decoder). The bench's noisy 8192² ground packs to 108 MB
//! against 137 MB with the png crate's fast mode (fdeflate's fixed code), in the same time on 2
//! cores (0.55 s) and in less on more; a real map's 1024² ground, 1.32 MB against 1.83.

use rayon::prelude::*;
use std::io::Write;

/// Rows per strip: 0.8 MB of an 8192-texel-wide texture, so a 16x16 map has 256 strips.
const STRIP_ROWS: usize = 32;
/// The private chunk that says a PNG was written by strips, so it can be read by strips:
/// ancillary, private and unsafe to copy (a tool that rewrites the pixels drops it). Its data:
/// [`STRIPS_VERSION`], then the rows per strip (u32, big-endian). It promises that each IDAT
/// chunk but the last holds one strip's deflate blocks (the first after the zlib header),
/// ending on a block boundary, with no run reaching back before the strip; that the first row
/// of each strip after the first is filtered by none or sub; and that the last IDAT holds the
/// zlib stream's adler-32 alone.
const STRIPS_CHUNK: &[u8; 4] = b"gwST";
const STRIPS_VERSION: u8 = 1;
/// RGB: three bytes a texel, which is also the distance the Sub, Avg and Paeth filters look back.
const BYTES_PER_TEXEL: usize = 3;
/// Runs of a repeated byte shorter than deflate's shortest match are left as literals.
const MIN_RUN: usize = 3;
const MAX_RUN: usize = 258;
/// Deflate's limits on code lengths: literal/length codes, and the code-length code.
const MAX_CODE_BITS: u8 = 15;
const MAX_CODE_LENGTH_BITS: u8 = 7;
/// Literals 0..=255, end of block 256, run lengths 257..=285.
const LITLEN_SYMBOLS: usize = 286;
const END_OF_BLOCK: usize = 256;
/// The order the code-length code's lengths are sent in (RFC 1951, 3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
/// The first length of each length symbol 257..=285, and its count of extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA_BITS: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// The index into `LENGTH_BASE` of each run length 3..=258.
const LENGTH_INDEX: [u8; MAX_RUN + 1] = {
    let mut t = [0u8; MAX_RUN + 1];
    let mut i = 0;
    while i < 28 {
        let mut len = LENGTH_BASE[i] as usize;
        while len < LENGTH_BASE[i + 1] as usize {
            t[len] = i as u8;
            len += 1;
        }
        i += 1;
    }
    // 258 has a symbol of its own; 284 with all extra bits set would say 258 too
    t[MAX_RUN] = 28;
    t
};

/// The length symbol (257..=285) of a run of `len` (3..=258) and the value of its extra bits.
#[inline(always)]
fn length_symbol(len: usize) -> (usize, u32, u8) {
    let i = LENGTH_INDEX[len] as usize;
    (
        257 + i,
        (len - LENGTH_BASE[i] as usize) as u32,
        LENGTH_EXTRA_BITS[i],
    )
}

/// The runs in `data`: (start, length) of each stretch of `MIN_RUN` (3) to `MAX_RUN` copies of
/// the byte before it, in order: at each place, the first run that starts there or later.
/// Eight bytes are compared with the eight before them at once, and a run start is where three
/// comparisons in a row are equal.
fn find_runs(data: &[u8]) -> Vec<(usize, usize)> {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let mut runs = Vec::new();
    let n = data.len();
    let mut i = 1;
    while i < n {
        let start = if i + 8 <= n {
            let word = |at: usize| u64::from_le_bytes(data[at..at + 8].try_into().expect("8"));
            let x = word(i) ^ word(i - 1);
            // the top bit of each byte of x that is zero: this byte equals the one before
            let equal = !(((x & LOW7) + LOW7) | x | LOW7);
            // ... and so do the next two: a run of three starts here (bytes 0..=5 of the word)
            let three = equal & (equal >> 8) & (equal >> 16);
            if three == 0 {
                i += 6;
                continue;
            }
            i + three.trailing_zeros() as usize / 8
        } else {
            let repeated = data[i - 1];
            if i + MIN_RUN > n || data[i..i + MIN_RUN].iter().any(|&b| b != repeated) {
                i += 1;
                continue;
            }
            i
        };
        let repeated = data[start - 1];
        let end = (start + MAX_RUN).min(n);
        let len = MIN_RUN
            + data[start + MIN_RUN..end]
                .iter()
                .take_while(|&&b| b == repeated)
                .count();
        runs.push((start, len));
        i = start + len;
    }
    runs
}

/// Huffman code lengths for `counts`, none longer than `limit` bits: a symbol never seen gets
/// none, and at least two symbols get one, as every decoder accepts. Too-long codes are made
/// shorter by halving the counts until they fit (it costs a fraction of a percent).
fn code_lengths(counts: &[u32], limit: u8) -> Vec<u8> {
    let mut counts = counts.to_vec();
    let mut used = counts.iter().filter(|&&c| c > 0).count();
    for c in counts.iter_mut() {
        if used >= 2 {
            break;
        }
        if *c == 0 {
            *c = 1;
            used += 1;
        }
    }
    loop {
        let lengths = huffman_lengths(&counts);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        for c in counts.iter_mut().filter(|c| **c > 0) {
            *c = c.div_ceil(2);
        }
    }
}

/// Unlimited Huffman code lengths (ties broken by symbol, so the same counts give the same
/// code).
fn huffman_lengths(counts: &[u32]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut parent: Vec<usize> = Vec::with_capacity(2 * counts.len());
    let mut heap = BinaryHeap::new();
    for (s, &c) in counts.iter().enumerate() {
        parent.push(usize::MAX);
        if c > 0 {
            heap.push(Reverse((c as u64, s)));
        }
    }
    while heap.len() > 1 {
        let Reverse((a, x)) = heap.pop().expect("two left");
        let Reverse((b, y)) = heap.pop().expect("two left");
        let node = parent.len();
        parent.push(usize::MAX);
        parent[x] = node;
        parent[y] = node;
        heap.push(Reverse((a + b, node)));
    }
    // a node's depth is its parent's plus one; parents come after their children
    let mut depth = vec![0u8; parent.len()];
    for n in (0..parent.len()).rev() {
        if parent[n] != usize::MAX {
            depth[n] = depth[parent[n]].saturating_add(1);
        }
    }
    counts
        .iter()
        .zip(&depth)
        .map(|(&c, &d)| if c > 0 { d } else { 0 })
        .collect()
}

/// The canonical codes of `lengths` (RFC 1951, 3.2.2), bit-reversed for deflate's LSB-first
/// order.
fn canonical_codes(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// Bits packed LSB-first into bytes, gathered a few KiB at a time before they join `out`.
/// Branch-free: each put stores the whole accumulator and keeps its partial byte.
struct BitWriter {
    out: Vec<u8>,
    buf: [u8; BIT_BUFFER_BYTES + 8],
    len: usize,
    acc: u64,
    bits: u32,
}

const BIT_BUFFER_BYTES: usize = 4096;

impl BitWriter {
    /// A writer that appends to `out`.
    fn new(out: Vec<u8>) -> Self {
        BitWriter {
            out,
            buf: [0; BIT_BUFFER_BYTES + 8],
            len: 0,
            acc: 0,
            bits: 0,
        }
    }

    /// Appends the low `n` bits of `value` (n <= 56).
    #[inline(always)]
    fn put(&mut self, value: u64, n: u8) {
        self.acc |= value << self.bits;
        self.bits += n as u32;
        self.buf[self.len..self.len + 8].copy_from_slice(&self.acc.to_le_bytes());
        let whole = (self.bits / 8) as usize; // at most 56 + 7 bits held: 7 bytes
        self.len += whole;
        self.acc = self.acc.checked_shr(8 * whole as u32).unwrap_or(0);
        self.bits %= 8;
        if self.len >= BIT_BUFFER_BYTES {
            self.out.extend_from_slice(&self.buf[..self.len]);
            self.len = 0;
        }
    }

    /// Pads with zero bits to a byte boundary and hands back `out` with everything written.
    fn finish(mut self) -> Vec<u8> {
        self.out.extend_from_slice(&self.buf[..self.len]);
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// One strip's filtered rows as a deflate block (final or ended by a sync flush), appended to
/// `out`.
fn deflate_strip(data: &[u8], last: bool, out: Vec<u8>) -> Vec<u8> {
    let runs = find_runs(data);
    // the literals between the runs
    let spans = || {
        let mut from = 0;
        runs.iter()
            .map(move |&(start, len)| {
                let span = from..start;
                from = start + len;
                (span, Some(len))
            })
            .chain(std::iter::once((
                runs.last().map_or(0, |&(s, l)| s + l)..data.len(),
                None,
            )))
    };
    // four tables, so a run of one byte value does not wait on its own count
    let mut quarter = [[0u32; 256]; 4];
    let mut counts = [0u32; LITLEN_SYMBOLS];
    for (span, run) in spans() {
        let quads = data[span].chunks_exact(4);
        for &b in quads.remainder() {
            counts[b as usize] += 1;
        }
        for q in quads {
            for (t, &b) in quarter.iter_mut().zip(q) {
                t[b as usize] += 1;
            }
        }
        if let Some(len) = run {
            counts[length_symbol(len).0] += 1;
        }
    }
    for t in &quarter {
        for (c, q) in counts.iter_mut().zip(t) {
            *c += q;
        }
    }
    counts[END_OF_BLOCK] = 1;
    let lit_lengths = code_lengths(&counts, MAX_CODE_BITS);
    let lit_codes = canonical_codes(&lit_lengths);
    // one distance code, distance 1, sent as one bit
    let hlit = lit_lengths
        .iter()
        .rposition(|&l| l > 0)
        .map_or(257, |p| p + 1)
        .max(257);
    let mut sequence: Vec<u8> = lit_lengths[..hlit].to_vec();
    sequence.push(1);
    let mut cl_counts = [0u32; 19];
    for &l in &sequence {
        cl_counts[l as usize] += 1;
    }
    let cl_lengths = code_lengths(&cl_counts, MAX_CODE_LENGTH_BITS);
    let cl_codes = canonical_codes(&cl_lengths);
    let hclen = CODE_LENGTH_ORDER
        .iter()
        .rposition(|&s| cl_lengths[s] > 0)
        .map_or(4, |p| p + 1)
        .max(4);

    let mut w = BitWriter::new(out);
    w.put(u64::from(last), 1);
    w.put(2, 2); // dynamic Huffman codes
    w.put((hlit - 257) as u64, 5);
    w.put(0, 5); // one distance code
    w.put((hclen - 4) as u64, 4);
    for &s in &CODE_LENGTH_ORDER[..hclen] {
        w.put(cl_lengths[s] as u64, 3);
    }
    for &l in &sequence {
        w.put(cl_codes[l as usize] as u64, cl_lengths[l as usize]);
    }
    // a literal's code and length in one word
    let table: Vec<(u64, u8)> = (0..LITLEN_SYMBOLS)
        .map(|s| (lit_codes[s] as u64, lit_lengths[s]))
        .collect();
    for (span, run) in spans() {
        // four literals a time where their codes fit one put (56 bits), else two at a time
        let quads = data[span].chunks_exact(4);
        let rest = quads.remainder();
        for q in quads {
            let (c0, n0) = table[q[0] as usize];
            let (c1, n1) = table[q[1] as usize];
            let (c2, n2) = table[q[2] as usize];
            let (c3, n3) = table[q[3] as usize];
            let (low, n_low) = (c0 | (c1 << n0), n0 + n1);
            let (high, n_high) = (c2 | (c3 << n2), n2 + n3);
            if n_low + n_high <= 56 {
                w.put(low | (high << n_low), n_low + n_high);
            } else {
                w.put(low, n_low);
                w.put(high, n_high);
            }
        }
        for &b in rest {
            let (code, n) = table[b as usize];
            w.put(code, n);
        }
        if let Some(len) = run {
            let (sym, extra, extra_bits) = length_symbol(len);
            let (code, n) = table[sym];
            // the length's code, its extra bits, then distance code 0 (the one bit 0)
            w.put(code | ((extra as u64) << n), n + extra_bits + 1);
        }
    }
    let (code, n) = table[END_OF_BLOCK];
    w.put(code, n);
    if last {
        return w.finish();
    }
    w.put(0, 3); // an empty stored block: the sync flush
    let mut out = w.finish();
    out.extend_from_slice(&[0, 0, 0xFF, 0xFF]);
    out
}

/// Row `row` (with `prev` the row above, zeros for the first) through PNG filter `kind`
/// (0 none, 1 sub, 2 up, 3 average, 4 Paeth) into `out`.
fn apply_filter(kind: u8, row: &[u8], prev: &[u8], out: &mut [u8]) {
    let bpp = BYTES_PER_TEXEL.min(row.len());
    if kind == 0 {
        out.copy_from_slice(row);
        return;
    }
    let (head, tail) = out.split_at_mut(bpp);
    match kind {
        1 => {
            head.copy_from_slice(&row[..bpp]);
            for ((o, &x), &a) in tail.iter_mut().zip(&row[bpp..]).zip(row) {
                *o = x.wrapping_sub(a);
            }
        }
        2 => {
            for ((o, &x), &b) in out.iter_mut().zip(row).zip(prev) {
                *o = x.wrapping_sub(b);
            }
        }
        3 => {
            for ((o, &x), &b) in head.iter_mut().zip(row).zip(prev) {
                *o = x.wrapping_sub(b >> 1);
            }
            for (((o, &x), &a), &b) in tail.iter_mut().zip(&row[bpp..]).zip(row).zip(&prev[bpp..]) {
                *o = x.wrapping_sub(((a as u16 + b as u16) >> 1) as u8);
            }
        }
        _ => {
            // with no texel to the left, Paeth predicts the one above
            for ((o, &x), &b) in head.iter_mut().zip(row).zip(prev) {
                *o = x.wrapping_sub(b);
            }
            for ((((o, &x), &a), &b), &c) in tail
                .iter_mut()
                .zip(&row[bpp..])
                .zip(row)
                .zip(&prev[bpp..])
                .zip(prev)
            {
                *o = x.wrapping_sub(paeth(a, b, c));
            }
        }
    }
}

/// The Paeth predictor of a byte from the one to its left (`a`), above (`b`) and above-left
/// (`c`): whichever is nearest `a + b - c`, ties to `a`, then `b`.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (a as i16, b as i16, c as i16);
    let pa = (b16 - c16).abs();
    let pb = (a16 - c16).abs();
    let pc = (a16 + b16 - 2 * c16).abs();
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// [`paeth`] on the lanes of a texel at once, without branches (the lanes' selects vectorise).
#[inline(always)]
fn paeth_texel(a: [i16; 4], b: [i16; 4], c: [i16; 4]) -> [i16; 4] {
    let mut out = [0i16; 4];
    for k in 0..4 {
        let pa = (b[k] - c[k]).abs();
        let pb = (a[k] - c[k]).abs();
        let pc = (a[k] + b[k] - 2 * c[k]).abs();
        let bc = if pb <= pc { b[k] } else { c[k] };
        out[k] = if pa <= pb && pa <= pc { a[k] } else { bc };
    }
    out
}

/// The filters tried on each row: sub and up. None and average win the sum-of-magnitudes
/// contest on noisy ground but pack worse under a Huffman code (on the bench's noisy 8192²
/// ground, 120.7 MB with all five against 108.4 MB; on a real map's 1024², 1.58 against 1.32).
/// Paeth packs no better on the bench's noisy ground (the same bytes at 4096²) and worse on
/// generated ground (9.24 MB against 9.15 at 16x16), and undoing it is a byte-serial chain five
/// times as slow as up's, which was most of a project's load.
const FILTERS_TRIED: [u8; 2] = [1, 2];

/// Appends one row, filtered by whichever of `kinds` gives the smallest sum of magnitudes (as
/// signed bytes), after its filter-type byte. `scratch` holds a row for each.
fn filter_row(
    row: &[u8],
    prev: &[u8],
    kinds: &[u8],
    scratch: &mut [Vec<u8>; 5],
    out: &mut Vec<u8>,
) {
    let mut best = (u32::MAX, 0usize);
    for kind in kinds.iter().map(|&k| usize::from(k)) {
        let buf = &mut scratch[kind];
        buf.resize(row.len(), 0);
        apply_filter(kind as u8, row, prev, buf);
        // at most 128 a byte: u32 holds any row a map has, and sums four times as wide as u64
        let cost: u32 = buf.iter().map(|&v| (v as i8).unsigned_abs() as u32).sum();
        if cost < best.0 {
            best = (cost, kind);
        }
    }
    out.push(best.1 as u8);
    out.extend_from_slice(&scratch[best.1]);
}

/// The rows a strip is filtered in, kept from strip to strip on each thread.
#[derive(Default)]
struct StripBuffers {
    row: Vec<u8>,
    prev: Vec<u8>,
    scratch: [Vec<u8>; 5],
    filtered: Vec<u8>,
}

/// Writes a `width` x `height` RGB8 PNG to `out`; `fill_row(y, row)` gives row `y`'s
/// `3 * width` bytes (it may be asked for a row twice, and from any thread).
pub fn write_png_rgb(
    out: &mut (impl Write + Send),
    width: usize,
    height: usize,
    fill_row: &(dyn Fn(usize, &mut [u8]) + Sync),
) -> std::io::Result<()> {
    let too_big = || std::io::Error::other("the image is too big for a PNG");
    let (w32, h32) = (
        u32::try_from(width).map_err(|_| too_big())?,
        u32::try_from(height).map_err(|_| too_big())?,
    );
    if width == 0 || height == 0 {
        return Err(std::io::Error::other("a PNG needs at least one texel"));
    }
    out.write_all(b"\x89PNG\r\n\x1a\n")?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&w32.to_be_bytes());
    ihdr.extend_from_slice(&h32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8 bits, RGB, deflate, PNG filters, no interlace
    out.write_all(&chunk(b"IHDR", &ihdr))?;
    let mut strips_chunk = vec![STRIPS_VERSION];
    strips_chunk.extend_from_slice(&(STRIP_ROWS as u32).to_be_bytes());
    out.write_all(&chunk(STRIPS_CHUNK, &strips_chunk))?;

    let stride = width * BYTES_PER_TEXEL;
    let strips = height.div_ceil(STRIP_ROWS);
    // one strip: its IDAT chunk, the adler-32 of its filtered bytes, and their count
    let strip = |bufs: &mut StripBuffers, s: usize| -> (Vec<u8>, u32, u64) {
        let rows = s * STRIP_ROWS..((s + 1) * STRIP_ROWS).min(height);
        let StripBuffers {
            row,
            prev,
            scratch,
            filtered,
        } = bufs;
        row.resize(stride, 0);
        prev.clear();
        prev.resize(stride, 0);
        filtered.clear();
        for y in rows.clone() {
            fill_row(y, row);
            // a strip's first row looks only to its left, so the strip unfilters on its own
            let kinds: &[u8] = if y == rows.start && s > 0 {
                &[1]
            } else {
                &FILTERS_TRIED
            };
            filter_row(row, prev, kinds, scratch, filtered);
            std::mem::swap(row, prev);
        }
        // the chunk's length is filled in once known
        let mut idat = Vec::with_capacity(filtered.len() + filtered.len() / 8 + 1024);
        idat.extend_from_slice(&[0, 0, 0, 0]);
        idat.extend_from_slice(b"IDAT");
        if s == 0 {
            idat.extend_from_slice(&[0x78, 0x01]); // zlib: deflate, 32 KiB window
        }
        let mut idat = deflate_strip(filtered, s + 1 == strips, idat);
        let data_len = (idat.len() - 8) as u32;
        idat[..4].copy_from_slice(&data_len.to_be_bytes());
        let crc = crc32fast::hash(&idat[4..]);
        idat.extend_from_slice(&crc.to_be_bytes());
        let adler = zlib_rs::adler32::adler32(1, filtered);
        (idat, adler, filtered.len() as u64)
    };
    // the strips are coded a batch at a time on the pool while the batch before is written
    let batch = 4 * rayon::current_num_threads().max(1);
    let mut adler = 1u32;
    let mut pending: Vec<(Vec<u8>, u32, u64)> = Vec::new();
    let mut next_strip = 0;
    loop {
        let range = next_strip..(next_strip + batch).min(strips);
        next_strip = range.end;
        let (written, coded) = rayon::join(
            || -> std::io::Result<()> {
                for (bytes, a, len) in &pending {
                    out.write_all(bytes)?;
                    adler = zlib_rs::adler32::adler32_combine(adler, *a, *len);
                }
                Ok(())
            },
            || {
                range
                    .into_par_iter()
                    .map_init(StripBuffers::default, strip)
                    .collect::<Vec<_>>()
            },
        );
        written?;
        if coded.is_empty() {
            break;
        }
        pending = coded;
    }
    out.write_all(&chunk(b"IDAT", &adler.to_be_bytes()))?;
    out.write_all(&chunk(b"IEND", &[]))?;
    Ok(())
}

/// A PNG chunk: length, type, data, CRC of type and data.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = Vec::with_capacity(data.len() + 12);
    c.extend_from_slice(&(data.len() as u32).to_be_bytes());
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    let mut h = crc32fast::Hasher::new();
    h.update(kind);
    h.update(data);
    c.extend_from_slice(&h.finalize().to_be_bytes());
    c
}

/// Decodes a PNG that [`write_png_rgb`] wrote (its [`STRIPS_CHUNK`] says so) into RGBA8 rows,
/// alpha 255, its strips inflated and unfiltered on every core. `None` when the bytes are not
/// such a PNG of `want` texels, or anything in them does not hold (a chunk's CRC, a strip
/// that does not inflate on its own to exactly its rows, a first row that looks up, the
/// adler-32): the caller then reads it with the general decoder, which names any fault.
pub fn read_png_rgb_strips(bytes: &[u8], want: (usize, usize)) -> Option<Vec<u8>> {
    let rest = bytes.strip_prefix(b"\x89PNG\r\n\x1a\n")?;
    let mut at = 0usize;
    let (mut ihdr, mut strip_rows, mut idats) = (None, None, Vec::new());
    loop {
        let len = u32::from_be_bytes(rest.get(at..at + 4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = rest.get(at + 4..at + 8)?.try_into().ok()?;
        let data = rest.get(at + 8..at.checked_add(8 + len)?)?;
        let crc = rest.get(at + 8 + len..at + 12 + len)?;
        let whole = &rest[at + 4..at + 8 + len];
        at += 12 + len;
        match &kind {
            b"IHDR" => ihdr = Some((data, whole, crc)),
            k if k == STRIPS_CHUNK && idats.is_empty() => {
                if crc32fast::hash(whole).to_be_bytes() != crc
                    || data.len() != 5
                    || data[0] != STRIPS_VERSION
                {
                    return None;
                }
                strip_rows = Some(u32::from_be_bytes(data[1..5].try_into().ok()?) as usize);
            }
            b"IDAT" => idats.push((data, whole, crc)),
            b"IEND" => break,
            _ => {}
        }
    }
    let (ihdr, ihdr_whole, ihdr_crc) = ihdr?;
    let strip_rows = strip_rows.filter(|&r| r > 0)?;
    if crc32fast::hash(ihdr_whole).to_be_bytes() != ihdr_crc || ihdr.len() != 13 {
        return None;
    }
    let width = u32::from_be_bytes(ihdr[0..4].try_into().ok()?) as usize;
    let height = u32::from_be_bytes(ihdr[4..8].try_into().ok()?) as usize;
    // 8-bit RGB, deflate, PNG filters, not interlaced
    if (width, height) != want || width == 0 || height == 0 || ihdr[8..13] != [8, 2, 0, 0, 0] {
        return None;
    }
    let strips = height.div_ceil(strip_rows);
    let (adler_chunk, strip_chunks) = idats.split_last()?;
    if strip_chunks.len() != strips || adler_chunk.0.len() != 4 {
        return None;
    }
    let crcs_hold = idats
        .par_iter()
        .all(|(_, whole, crc)| crc32fast::hash(whole).to_be_bytes() == **crc);
    if !crcs_hold {
        return None;
    }
    // the zlib header: deflate, no preset dictionary
    let head = strip_chunks[0].0.get(..2)?;
    if head[0] & 0x0f != 8
        || head[1] & 0x20 != 0
        || u16::from_be_bytes([head[0], head[1]]) % 31 != 0
    {
        return None;
    }
    let stride = width * BYTES_PER_TEXEL;
    let mut rgba = crate::map::texture::zeroed_texels(width * height * 4);
    let adlers: Option<Vec<(u32, u64)>> = rgba
        .par_chunks_mut(strip_rows * width * 4)
        .zip(strip_chunks.par_iter())
        .enumerate()
        .map_init(Vec::new, |filtered, (s, (out, (data, _, _)))| {
            let rows = out.len() / (width * 4);
            let want_bytes = rows * (stride + 1);
            let last = s + 1 == strips;
            // each strip after the first is inflated as a zlib stream of its own: the first's
            // header before it, and after the last the adler-32 that the last IDAT holds
            let mut owned;
            let input: &[u8] = if s == 0 && !last {
                data
            } else {
                owned = Vec::with_capacity(data.len() + 6);
                if s > 0 {
                    owned.extend_from_slice(&strip_chunks[0].0[..2]);
                }
                owned.extend_from_slice(data);
                if last {
                    owned.extend_from_slice(adler_chunk.0);
                }
                &owned
            };
            // a strip that is not the last ends on an empty stored block (a sync flush)
            if !last && !input.ends_with(&[0, 0, 0xFF, 0xFF]) {
                return None;
            }
            filtered.clear();
            // one byte more than the rows: a strip that would go on is caught, not cut short
            filtered.resize(want_bytes + 1, 0);
            let mut inflate = fdeflate::Decompressor::new();
            inflate.ignore_adler32();
            let (read, written) = inflate.read(input, filtered, 0, last).ok()?;
            if read != input.len() || written != want_bytes || inflate.is_done() != last {
                return None;
            }
            filtered.truncate(want_bytes);
            let adler = zlib_rs::adler32::adler32(1, filtered);
            // the row above the strip's first is taken as zeros: exact for the image's first
            // row, and for any other when its filter looks only to its left
            if s > 0 && filtered[0] > 1 {
                return None;
            }
            let mut prev_start = None;
            for r in 0..rows {
                let start = r * (stride + 1);
                let (before, here) = filtered.split_at_mut(start + 1);
                let kind = before[start];
                let row = &mut here[..stride];
                let prev = prev_start.map(|p: usize| &before[p..p + stride]);
                if !unfilter_row(kind, row, prev) {
                    return None;
                }
                for (d, s) in out[r * width * 4..(r + 1) * width * 4]
                    .chunks_exact_mut(4)
                    .zip(row.chunks_exact(3))
                {
                    d.copy_from_slice(&[s[0], s[1], s[2], 255]);
                }
                prev_start = Some(start + 1);
            }
            Some((adler, want_bytes as u64))
        })
        .collect();
    let adler = adlers?.into_iter().fold(1u32, |a, (b, len)| {
        zlib_rs::adler32::adler32_combine(a, b, len)
    });
    (adler.to_be_bytes() == adler_chunk.0[..4]).then_some(rgba)
}

/// Undoes PNG filter `kind` on `row` (3 bytes a texel) in place; `prev` is the row above,
/// unfiltered, or `None` for zeros. False for a filter PNG does not have.
fn unfilter_row(kind: u8, row: &mut [u8], prev: Option<&[u8]>) -> bool {
    const B: usize = BYTES_PER_TEXEL;
    match (kind, prev) {
        (0, _) | (2, None) => {}
        // each texel's three bytes at once, the texel to the left and above-left carried
        (1, _) | (4, None) => {
            // (Paeth with zeros above predicts the texel to the left, as sub does)
            let mut left = [0u8; B];
            for px in row.chunks_exact_mut(B) {
                for k in 0..B {
                    px[k] = px[k].wrapping_add(left[k]);
                }
                left.copy_from_slice(px);
            }
        }
        (2, Some(up)) => {
            for (x, &b) in row.iter_mut().zip(up) {
                *x = x.wrapping_add(b);
            }
        }
        (3, up) => {
            let mut left = [0u8; B];
            for (i, px) in row.chunks_exact_mut(B).enumerate() {
                for k in 0..B {
                    let b = up.map_or(0, |u| u[i * B + k] as u16);
                    px[k] = px[k].wrapping_add(((left[k] as u16 + b) >> 1) as u8);
                }
                left.copy_from_slice(px);
            }
        }
        (4, Some(up)) => {
            // the first texel has zeros to its left: Paeth then predicts the one above. The
            // three bytes of a texel go through the predictor side by side (`paeth_texel`).
            let (mut left, mut above_left) = ([0i16; 4], [0i16; 4]);
            for (px, above) in row.chunks_exact_mut(B).zip(up.chunks_exact(B)) {
                let b = [above[0] as i16, above[1] as i16, above[2] as i16, 0];
                let pred = paeth_texel(left, b, above_left);
                for k in 0..B {
                    px[k] = px[k].wrapping_add(pred[k] as u8);
                    left[k] = px[k] as i16;
                }
                above_left = b;
            }
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes an RGB8 PNG with the png crate.
    fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut r = png::Decoder::new(std::io::Cursor::new(png_bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0u8; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    fn encode(w: usize, h: usize, rgb: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        write_png_rgb(&mut out, w, h, &|y, row| {
            row.copy_from_slice(&rgb[y * w * 3..(y + 1) * w * 3])
        })
        .unwrap();
        out
    }

    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn every_kind_of_picture_decodes_to_its_texels() {
        let (w, h) = (173, 101); // strips of 32 rows and a short last one, odd widths
        let pictures: Vec<(&str, Vec<u8>)> = vec![
            ("flat", vec![77; w * h * 3]),
            ("zeros", vec![0; w * h * 3]),
            ("noise", noise(w * h * 3, 5)),
            (
                "gradient",
                (0..w * h * 3)
                    .map(|i| ((i / 3 % w + i / 3 / w) % 256) as u8)
                    .collect(),
            ),
            (
                "stripes with noise",
                (0..w * h * 3)
                    .map(|i| {
                        if (i / 3 / w) % 7 < 3 {
                            200
                        } else {
                            (i * 31 % 251) as u8
                        }
                    })
                    .collect(),
            ),
        ];
        for (name, rgb) in pictures {
            let png_bytes = encode(w, h, &rgb);
            let (dw, dh, back) = decode(&png_bytes);
            assert_eq!((dw, dh), (w as u32, h as u32), "{name}");
            assert!(back == rgb, "{name}: the texels differ");
            let by_strips = read_png_rgb_strips(&png_bytes, (w, h));
            assert!(
                by_strips == Some(rgba(&rgb)),
                "{name}: read by strips, the texels differ"
            );
        }
        // flat ground with a rare speck: the specks' bytes get codes of 12 to 15 bits, and
        // come four in a row
        let specks: Vec<u8> = noise(w * h * 3, 11)
            .chunks_exact(3)
            .enumerate()
            .flat_map(|(i, n)| {
                if i % 97 == 0 {
                    [n[0], n[1], n[2]]
                } else {
                    [40, 90, 140]
                }
            })
            .collect();
        let png_bytes = encode(w, h, &specks);
        assert!(decode(&png_bytes).2 == specks, "specks: the texels differ");
        assert!(read_png_rgb_strips(&png_bytes, (w, h)) == Some(rgba(&specks)));
        for (w, h) in [(1, 1), (1, 70), (300, 1), (64, 64)] {
            let rgb = noise(w * h * 3, (w * h) as u64);
            let png_bytes = encode(w, h, &rgb);
            assert_eq!(decode(&png_bytes).2, rgb, "{w}x{h}");
            assert!(
                read_png_rgb_strips(&png_bytes, (w, h)) == Some(rgba(&rgb)),
                "{w}x{h}"
            );
        }
    }

    /// RGB texels as opaque RGBA.
    fn rgba(rgb: &[u8]) -> Vec<u8> {
        rgb.chunks_exact(3)
            .flat_map(|t| [t[0], t[1], t[2], 255])
            .collect()
    }

    /// The chunk of `kind` at its place in `png` (start of its length field), if any.
    fn find_chunk(png: &[u8], kind: &[u8; 4]) -> Option<usize> {
        let mut at = 8;
        while at + 8 <= png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            if &png[at + 4..at + 8] == kind {
                return Some(at);
            }
            at += 12 + len;
        }
        None
    }

    /// Sets the CRC of the chunk at `at` to match its bytes.
    fn fix_crc(png: &mut [u8], at: usize) {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let crc = crc32fast::hash(&png[at + 4..at + 8 + len]);
        png[at + 8 + len..at + 12 + len].copy_from_slice(&crc.to_be_bytes());
    }

    #[test]
    fn only_a_whole_png_of_our_strips_is_read_by_strips() {
        let (w, h) = (150, 90);
        let rgb: Vec<u8> = noise(w * h * 3, 3)
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i / 3 / w % 5 == 0 {
                    *n
                } else {
                    (i % 200) as u8
                }
            })
            .collect();
        let ours = encode(w, h, &rgb);
        assert!(read_png_rgb_strips(&ours, (w, h)) == Some(rgba(&rgb)));
        // another size than the one asked for
        assert!(read_png_rgb_strips(&ours, (w, h + 1)).is_none());
        // the png crate's own file: no strips chunk
        let mut theirs = Vec::new();
        {
            let mut e = png::Encoder::new(&mut theirs, w as u32, h as u32);
            e.set_color(png::ColorType::Rgb);
            e.write_header().unwrap().write_image_data(&rgb).unwrap();
        }
        assert!(read_png_rgb_strips(&theirs, (w, h)).is_none());
        // cut anywhere
        for cut in [10, 40, ours.len() / 2, ours.len() - 13, ours.len() - 1] {
            assert!(
                read_png_rgb_strips(&ours[..cut], (w, h)).is_none(),
                "cut at {cut}"
            );
        }
        // a byte of the deflate stream flipped: the CRC says so; with the CRC made to match,
        // the strip's inflate or the adler-32 does
        let idat = find_chunk(&ours, b"IDAT").unwrap();
        let mut flipped = ours.clone();
        flipped[idat + 8 + 100] ^= 0x10;
        assert!(read_png_rgb_strips(&flipped, (w, h)).is_none());
        fix_crc(&mut flipped, idat);
        assert!(read_png_rgb_strips(&flipped, (w, h)).is_none());
        // a strips chunk that lies about the rows per strip
        let st = find_chunk(&ours, STRIPS_CHUNK).unwrap();
        let mut lying = ours.clone();
        lying[st + 9..st + 13].copy_from_slice(&16u32.to_be_bytes());
        fix_crc(&mut lying, st);
        assert!(read_png_rgb_strips(&lying, (w, h)).is_none());
        // random damage with every CRC made to match: nothing panics, and whatever is read by
        // strips is what the png crate reads from the same bytes
        let chunks: Vec<usize> = {
            let mut v = Vec::new();
            let mut at = 8;
            while at + 8 <= ours.len() {
                v.push(at);
                at += 12 + u32::from_be_bytes(ours[at..at + 4].try_into().unwrap()) as usize;
            }
            v
        };
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..300 {
            let mut bad = ours.clone();
            let c = chunks[next() as usize % chunks.len()];
            let len = u32::from_be_bytes(bad[c..c + 4].try_into().unwrap()) as usize;
            if len == 0 {
                continue;
            }
            let at = c + 8 + next() as usize % len;
            bad[at] ^= 1 << (next() % 8);
            fix_crc(&mut bad, c);
            let Some(read) = read_png_rgb_strips(&bad, (w, h)) else {
                continue;
            };
            let general = png::Decoder::new(std::io::Cursor::new(&bad))
                .read_info()
                .and_then(|mut r| {
                    let mut buf = vec![0u8; r.output_buffer_size().unwrap()];
                    r.next_frame(&mut buf).map(|_| buf)
                });
            match general {
                Ok(buf) => assert!(read == rgba(&buf), "byte {at}: the two readers differ"),
                Err(e) => panic!("byte {at}: read by strips, but the png crate says {e}"),
            }
        }
    }

    #[test]
    fn the_zlib_stream_is_whole_with_its_checksum() {
        // zlib-rs checks the adler-32 at the end; the png crate does not
        let (w, h) = (257, 97);
        let rgb = noise(w * h * 3, 9);
        let png_bytes = encode(w, h, &rgb);
        let mut zlib = Vec::new();
        let mut at = 8;
        while at < png_bytes.len() {
            let len = u32::from_be_bytes(png_bytes[at..at + 4].try_into().unwrap()) as usize;
            if &png_bytes[at + 4..at + 8] == b"IDAT" {
                zlib.extend_from_slice(&png_bytes[at + 8..at + 8 + len]);
            }
            at += 12 + len;
        }
        let mut raw = vec![0u8; h * (w * 3 + 1)];
        let (unpacked, rc) = zlib_rs::decompress_slice(&mut raw, &zlib, Default::default());
        assert_eq!(rc, zlib_rs::ReturnCode::Ok);
        assert_eq!(unpacked.len(), h * (w * 3 + 1));
    }

    #[test]
    fn flat_and_smooth_ground_pack_small_and_noise_no_bigger_than_it_is() {
        let (w, h) = (512, 512);
        let flat = encode(w, h, &vec![90; w * h * 3]);
        assert!(flat.len() < w * h * 3 / 100, "flat: {} bytes", flat.len());
        let smooth: Vec<u8> = (0..w * h)
            .flat_map(|i| {
                let (x, y) = ((i % w) as f32, (i / w) as f32);
                [
                    (128.0 + 60.0 * (x * 0.02).sin()) as u8,
                    (100.0 + 50.0 * (y * 0.03).cos()) as u8,
                    80,
                ]
            })
            .collect();
        let smooth_png = encode(w, h, &smooth);
        assert!(
            smooth_png.len() < w * h * 3 / 4,
            "smooth: {}",
            smooth_png.len()
        );
        let noisy = encode(w, h, &noise(w * h * 3, 3));
        assert!(
            noisy.len() < w * h * 3 * 101 / 100,
            "noise: {}",
            noisy.len()
        );
    }

    #[test]
    fn runs_are_found_as_a_byte_by_byte_scan_finds_them() {
        // the first place (from where the last run ended) whose byte and the next two repeat
        // the byte before, up to MAX_RUN long
        let naive = |data: &[u8]| {
            let mut runs = Vec::new();
            let mut i = 1;
            while i < data.len() {
                let r = data[i - 1];
                let len = data[i..]
                    .iter()
                    .take(MAX_RUN)
                    .take_while(|&&b| b == r)
                    .count();
                if len >= MIN_RUN {
                    runs.push((i, len));
                    i += len;
                } else {
                    i += 1;
                }
            }
            runs
        };
        for seed in 1..200u64 {
            // few byte values, so runs of every length turn up, ends of words included
            let len = (seed * 37 % 700) as usize;
            let data: Vec<u8> = noise(len, seed)
                .iter()
                .map(|b| b % (1 + (seed % 4) as u8))
                .collect();
            assert_eq!(find_runs(&data), naive(&data), "seed {seed}");
        }
        let long = vec![5u8; 1000];
        assert_eq!(find_runs(&long), naive(&long));
    }

    #[test]
    fn codes_of_fifteen_bits_four_in_a_row_survive() {
        // sixteen rare bytes, then bytes seen 16, 32, 64, ... times: Huffman wants the rare
        // ones deeper than 15 bits, and deflate's limit puts them at 15. Quads of rare bytes
        // sit after 0 to 7 common ones, so the bits the writer holds before them vary; the
        // rest alternates with its commonest byte, so no run hides a literal
        let mut data: Vec<u8> = Vec::new();
        for k in 0..8u8 {
            data.extend((0..k).map(|i| 100 + i % 2));
            data.extend((0..4).map(|i| 200 + (4 * k + i) % 16));
        }
        let mut left: Vec<u32> = (0..16).map(|k| 16 << k).collect();
        while left.iter().any(|&n| n > 0) {
            for (byte, n) in left.iter_mut().enumerate() {
                if *n > 0 {
                    data.extend_from_slice(&[byte as u8, 100]);
                    *n -= 1;
                }
            }
        }
        let mut counts = [0u32; LITLEN_SYMBOLS];
        for &b in &data {
            counts[b as usize] += 1;
        }
        counts[END_OF_BLOCK] = 1;
        let lengths = code_lengths(&counts, MAX_CODE_BITS);
        let rare_four: u32 = (200..204).map(|b| lengths[b] as u32).sum();
        assert!(rare_four > 56, "four rare codes take {rare_four} bits");
        let mut zlib = vec![0x78, 0x01];
        zlib = deflate_strip(&data, true, zlib);
        zlib.extend_from_slice(&zlib_rs::adler32::adler32(1, &data).to_be_bytes());
        let mut back = vec![0u8; data.len()];
        let (unpacked, rc) = zlib_rs::decompress_slice(&mut back, &zlib, Default::default());
        assert_eq!(rc, zlib_rs::ReturnCode::Ok);
        assert!(unpacked == &data[..]);
    }

    #[test]
    fn run_lengths_map_to_deflates_symbols() {
        assert_eq!(length_symbol(3), (257, 0, 0));
        assert_eq!(length_symbol(10), (264, 0, 0));
        assert_eq!(length_symbol(12), (265, 1, 1));
        assert_eq!(length_symbol(227), (284, 0, 5));
        assert_eq!(length_symbol(257), (284, 30, 5));
        assert_eq!(length_symbol(258), (285, 0, 0));
    }

    #[test]
    fn code_lengths_respect_the_limit_and_make_a_complete_code() {
        // counts growing like Fibonacci numbers want codes of 30 bits
        let mut counts = vec![1u32, 1];
        while counts.len() < 30 {
            let n = counts.len();
            counts.push(counts[n - 1] + counts[n - 2]);
        }
        let lengths = code_lengths(&counts, 15);
        assert!(lengths.iter().all(|&l| (1..=15).contains(&l)));
        let kraft: f64 = lengths.iter().map(|&l| 0.5f64.powi(l as i32)).sum();
        assert!((kraft - 1.0).abs() < 1e-12, "kraft sum {kraft}");
        // a lone symbol still gets a partner
        let lone = code_lengths(&[0, 0, 5, 0], 7);
        assert_eq!(lone.iter().filter(|&&l| l > 0).count(), 2);
    }
}
