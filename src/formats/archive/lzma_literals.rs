//! A fast LZMA encoder for noisy entries (BC1 tiles of a photographic ground, DNTS and normal
//! maps): every byte is coded as a literal, in the context of its position modulo 8 (`lc=0`,
//! `lp=3`, `pb=3`), cut into LZMA2 chunks ([`super::lzma2_parts`]). BC1 is made of 8-byte blocks,
//! two colours then sixteen 2-bit indices, so that context alone packs such data as well as
//! LZMA with matches does (noisy tiles: 0.77 of their size against 0.88 for 7-Zip `-mx=1`'s
//! settings), at 3-5x the speed, since no match finder runs. Any LZMA decoder reads it: it is
//! plain LZMA that happens to hold no match.

/// The literal context: no bits of the previous byte, the position modulo 8, and the match
/// flag by position modulo 8 as well.
pub const LC: u32 = 0;
pub const LP: u32 = 3;
pub const PB: u32 = 3;
/// The LZMA properties byte of these settings, as an LZMA2 chunk carries it.
pub const PROPS: u8 = ((PB * 5 + LP) * 9 + LC) as u8;

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

/// The LZMA coder's probabilities and position between chunks.
pub struct LiteralEncoder {
    is_match: Vec<u16>,
    literals: Vec<u16>,
    pos: usize,
}

impl Default for LiteralEncoder {
    fn default() -> Self {
        LiteralEncoder {
            is_match: vec![(PROB_ONE / 2) as u16; 1 << PB],
            literals: vec![(PROB_ONE / 2) as u16; 0x300 << (LC + LP)],
            pos: 0,
        }
    }
}

impl LiteralEncoder {
    /// Puts the probabilities back to even, as an LZMA2 state reset does (the position, which
    /// counts from the last dictionary reset, stays).
    pub fn reset_state(&mut self) {
        self.is_match.fill((PROB_ONE / 2) as u16);
        self.literals.fill((PROB_ONE / 2) as u16);
    }

    /// Codes bytes from the start of `data` as one range-coded run, stopping before its packed
    /// bytes (flushed) could pass `max_packed_bytes`; returns how many bytes it took and the
    /// packed run. The probabilities carry on to the next call, as in an LZMA2 chunk that
    /// resets nothing.
    pub fn code_run(&mut self, data: &[u8], max_packed_bytes: usize) -> (usize, Vec<u8>) {
        // one byte codes nine bits, each at most 6.1 bits at the least likely probability
        // (31/2048): 7 bytes, plus 5 to flush and the bytes held back
        const MARGIN_BYTES: u64 = 16;
        let limit = max_packed_bytes as u64;
        let mut rc = RangeEncoder::new(data.len().min(max_packed_bytes) + 16);
        let pb_mask = (1usize << PB) - 1;
        let lp_mask = (1usize << LP) - 1;
        let mut taken = 0;
        for &byte in data {
            if rc.out.len() as u64 + rc.cache_size + MARGIN_BYTES > limit {
                break;
            }
            // LZMA's state stays "after a literal" (0) forever, so the match flag's context
            // is the position alone; with lc = 0 the previous byte adds nothing
            rc.bit(&mut self.is_match[self.pos & pb_mask], 0);
            let at = (self.pos & lp_mask) * 0x300;
            let probs = &mut self.literals[at..at + 0x300];
            let mut symbol = 1usize;
            for i in (0..8).rev() {
                let bit = u32::from(byte >> i) & 1;
                rc.bit(&mut probs[symbol], bit);
                symbol = (symbol << 1) | bit as usize;
            }
            self.pos += 1;
            taken += 1;
        }
        (taken, rc.finish())
    }
}

/// The whole of `data` as one raw LZMA run of literals (what the sampler measures).
pub fn encode(data: &[u8]) -> Vec<u8> {
    LiteralEncoder::default().code_run(data, usize::MAX).1
}
