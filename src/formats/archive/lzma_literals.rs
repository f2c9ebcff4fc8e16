//! A fast LZMA encoder for noisy entries (BC1 tiles of a photographic ground, DNTS and normal
//! maps): every byte is coded as a literal, in the context of its position modulo 8 (`lc=0`,
//! `lp=3`, `pb=3`), and the stream is wrapped as a one-entry 7z. BC1 is made of 8-byte blocks,
//! two colours then sixteen 2-bit indices, so that context alone packs such data as well as
//! LZMA with matches does (noisy tiles: 0.77 of their size against 0.88 for 7-Zip `-mx=1`'s
//! settings), at 3-5x the speed, since no match finder runs. Any LZMA decoder reads it: it is
//! a plain LZMA stream that happens to hold no match.

/// The literal context: no bits of the previous byte, the position modulo 8, and the match
/// flag by position modulo 8 as well.
pub const LC: u32 = 0;
pub const LP: u32 = 3;
pub const PB: u32 = 3;
/// The dictionary the stream declares: the smallest LZMA allows, as it refers to nothing.
const DICT_BYTES: u32 = 1 << 12;

/// LZMA's probabilities are 11 bits; each coded bit moves its probability 1/32 of the way.
const PROB_BITS: u32 = 11;
const PROB_ONE: u32 = 1 << PROB_BITS;
const MOVE_BITS: u32 = 5;
/// The range coder renormalises when its range falls below this.
const TOP: u32 = 1 << 24;

/// LZMA's range encoder, writing into a buffer.
struct RangeEncoder {
    low: u64,
    range: u32,
    /// The byte held back until a carry can no longer reach it, and how many 0xFF bytes
    /// follow it (plus one for itself).
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
}

impl RangeEncoder {
    fn new(capacity_bytes: usize) -> Self {
        RangeEncoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::with_capacity(capacity_bytes),
        }
    }

    /// Moves the top byte of `low` out, propagating a carry into the bytes held back.
    #[inline(never)]
    fn shift_low(&mut self) {
        if (self.low as u32) < 0xFF00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            while self.cache_size > 0 {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.cache_size -= 1;
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// Codes `bit` (0 or 1) with probability `prob` of a 0, and adapts it. Branch-free: on
    /// noisy data each bit is a coin toss, and a mispredicted branch per bit would cost
    /// more than the coding itself.
    #[inline(always)]
    fn bit(&mut self, prob: &mut u16, bit: u32) {
        let p = *prob as u32;
        let bound = (self.range >> PROB_BITS) * p;
        let one = 0u32.wrapping_sub(bit); // all ones for a 1
        self.low += (bound & one) as u64;
        self.range = (bound & !one) | (self.range.wrapping_sub(bound) & one);
        // a 0 moves p towards PROB_ONE; a 1 towards 0, and (31 - p) >> 5 rounds as the
        // decoder's p - (p >> 5) does
        let target = PROB_ONE - ((PROB_ONE - ((1 << MOVE_BITS) - 1)) & one);
        *prob = (p as i32 + ((target as i32 - p as i32) >> MOVE_BITS)) as u16;
        // a probability is at least 31/2048, so one shift restores the range
        if self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// The LZMA coder state between calls: the probabilities and the previous byte.
pub struct LiteralEncoder {
    rc: RangeEncoder,
    is_match: Vec<u16>,
    literals: Vec<u16>,
    pos: usize,
}

impl LiteralEncoder {
    /// An encoder for about `len_bytes` of input.
    pub fn new(len_bytes: usize) -> Self {
        LiteralEncoder {
            rc: RangeEncoder::new(len_bytes + len_bytes / 16 + 16),
            is_match: vec![(PROB_ONE / 2) as u16; 1 << PB],
            literals: vec![(PROB_ONE / 2) as u16; 0x300 << (LC + LP)],
            pos: 0,
        }
    }

    /// Codes the next bytes of the stream.
    pub fn write(&mut self, data: &[u8]) {
        let pb_mask = (1usize << PB) - 1;
        let lp_mask = (1usize << LP) - 1;
        for &byte in data {
            // LZMA's state stays "after a literal" (0) forever, so the match flag's context
            // is the position alone; with lc = 0 the previous byte adds nothing
            self.rc.bit(&mut self.is_match[self.pos & pb_mask], 0);
            let at = (self.pos & lp_mask) * 0x300;
            let probs = &mut self.literals[at..at + 0x300];
            let mut symbol = 1usize;
            for i in (0..8).rev() {
                let bit = u32::from(byte >> i) & 1;
                self.rc.bit(&mut probs[symbol], bit);
                symbol = (symbol << 1) | bit as usize;
            }
            self.pos += 1;
        }
    }

    /// The LZMA stream (no header and no end marker: the 7z entry gives its size).
    pub fn finish(self) -> Vec<u8> {
        self.rc.finish()
    }
}

/// The whole of `data` as a raw LZMA stream of literals.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut e = LiteralEncoder::new(data.len());
    e.write(data);
    e.finish()
}

/// The 7z coder properties of such a stream: the lc/lp/pb byte and the dictionary size.
fn coder_props() -> [u8; 5] {
    let d = DICT_BYTES.to_le_bytes();
    [((PB * 5 + LP) * 9 + LC) as u8, d[0], d[1], d[2], d[3]]
}

/// Appends a 7z NUMBER: the count of leading one bits in the first byte is the count of
/// bytes that follow (little-endian), and the first byte's other bits are the top bits.
fn put_number(out: &mut Vec<u8>, v: u64) {
    for extra in 0..8u32 {
        if v < 1u64 << (7 * (extra + 1)) {
            let first = !(0xFFu8 >> extra) | (v >> (8 * extra)) as u8;
            out.push(first);
            out.extend_from_slice(&v.to_le_bytes()[..extra as usize]);
            return;
        }
    }
    out.push(0xFF);
    out.extend_from_slice(&v.to_le_bytes());
}

/// A 7z archive of one entry `name` whose bytes (`unpacked_len` of them, CRC `crc`) are the
/// raw LZMA stream `packed`, as `7zFormat.txt` lays it out: the signature header, the packed
/// stream, then the header (one pack stream, one folder of one LZMA coder, the entry's CRC,
/// its name).
pub fn one_entry_7z(name: &str, packed: &[u8], unpacked_len: u64, crc: u32) -> Vec<u8> {
    const K_END: u8 = 0x00;
    let mut h = vec![0x01, 0x04]; // Header, MainStreamsInfo
    h.push(0x06); // PackInfo: at 0, one stream of its size
    put_number(&mut h, 0);
    put_number(&mut h, 1);
    h.push(0x09);
    put_number(&mut h, packed.len() as u64);
    h.push(K_END);
    h.extend_from_slice(&[0x07, 0x0B]); // UnPackInfo, Folder
    put_number(&mut h, 1); // one folder
    h.push(0); // not external
    put_number(&mut h, 1); // of one coder: a simple one with properties, id 03 01 01 (LZMA)
    h.extend_from_slice(&[0x23, 0x03, 0x01, 0x01]);
    let props = coder_props();
    put_number(&mut h, props.len() as u64);
    h.extend_from_slice(&props);
    h.push(0x0C); // CodersUnPackSize
    put_number(&mut h, unpacked_len);
    h.push(K_END);
    h.extend_from_slice(&[0x08, 0x0A, 0x01]); // SubStreamsInfo: one stream, its CRC defined
    h.extend_from_slice(&crc.to_le_bytes());
    h.push(K_END);
    h.push(K_END); // end of MainStreamsInfo
    h.push(0x05); // FilesInfo: one file, its name
    put_number(&mut h, 1);
    let name_utf16: Vec<u8> = name
        .encode_utf16()
        .chain([0])
        .flat_map(u16::to_le_bytes)
        .collect();
    h.push(0x11);
    put_number(&mut h, name_utf16.len() as u64 + 1);
    h.push(0); // not external
    h.extend_from_slice(&name_utf16);
    h.push(K_END); // end of FilesInfo
    h.push(K_END); // end of Header

    let mut start = Vec::with_capacity(20);
    start.extend_from_slice(&(packed.len() as u64).to_le_bytes()); // header offset
    start.extend_from_slice(&(h.len() as u64).to_le_bytes());
    start.extend_from_slice(&crc32fast::hash(&h).to_le_bytes());
    let mut out = Vec::with_capacity(32 + packed.len() + h.len());
    out.extend_from_slice(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4]);
    out.extend_from_slice(&crc32fast::hash(&start).to_le_bytes());
    out.extend_from_slice(&start);
    out.extend_from_slice(packed);
    out.extend_from_slice(&h);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Reads back the one entry of a 7z through sevenz-rust2.
    fn unpack(archive: &[u8]) -> (String, Vec<u8>) {
        let mut r =
            sevenz_rust2::ArchiveReader::new(Cursor::new(archive), sevenz_rust2::Password::empty())
                .unwrap();
        let mut got = None;
        r.for_each_entries(|entry, reader| {
            let mut data = Vec::new();
            reader.read_to_end(&mut data)?;
            got = Some((entry.name().to_string(), data));
            Ok(true)
        })
        .unwrap();
        got.unwrap()
    }

    /// Bytes from a small deterministic generator (xorshift64).
    fn noise(len_bytes: usize) -> Vec<u8> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..len_bytes)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn streams_decode_to_their_bytes_at_every_length() {
        for data in [
            vec![],
            vec![0],
            vec![0xFF; 100_000],
            noise(7),
            noise(300_001),
            super::super::tests::noisy_ground_bc1(64, true),
        ] {
            let packed = encode(&data);
            let archive = one_entry_7z("maps/m.smt", &packed, data.len() as u64, {
                crc32fast::hash(&data)
            });
            let (name, back) = unpack(&archive);
            assert_eq!(name, "maps/m.smt");
            assert!(back == data, "{} bytes did not survive", data.len());
        }
    }

    #[test]
    fn numbers_use_the_7z_variable_length_form() {
        let enc = |v| {
            let mut out = Vec::new();
            put_number(&mut out, v);
            out
        };
        assert_eq!(enc(0x7F), [0x7F]);
        assert_eq!(enc(0x80), [0x80, 0x80]);
        assert_eq!(enc(0x3FFF), [0xBF, 0xFF]);
        assert_eq!(enc(0x4000), [0xC0, 0x00, 0x40]);
        assert_eq!(
            enc(u64::MAX),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
    }
}
