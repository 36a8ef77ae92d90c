/**
 * Seeded XorShift128 generator matching rand_xorshift 0.3 + rand 0.8.5 as used by graspologic-native
 * (spec leiden.md §9): same seeding, same u32/u64 streams, same gen_range and f64 conversions.
 */

const TWO_32 = 4294967296
const TWO_53 = 9007199254740992
const TWO_21 = 2097152

/** Deterministic random source; every Leiden call consumes it in the reference order. */
export class XorShift128 {
  private x: number
  private y: number
  private z: number
  private w: number

  constructor(seed: number | bigint) {
    // rand_core 0.6 `seed_from_u64`: a PCG32 step per output word. BigInt is fine: it runs once.
    let s = BigInt.asUintN(64, BigInt(seed))
    const words: number[] = []
    for (let i = 0; i < 4; i++) {
      s = BigInt.asUintN(64, s * 6364136223846793005n + 11634580027462260723n)
      const xorshifted = Number(BigInt.asUintN(32, ((s >> 18n) ^ s) >> 27n))
      const rot = Number(s >> 59n)
      words.push(((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0)
    }
    if ((words[0] | words[1] | words[2] | words[3]) === 0) words.fill(0x0bad5eed)
    this.x = words[0]
    this.y = words[1]
    this.z = words[2]
    this.w = words[3]
  }

  /** Current state words (for tests against the reference vectors). */
  state(): [number, number, number, number] {
    return [this.x, this.y, this.z, this.w]
  }

  nextU32(): number {
    const t = (this.x ^ (this.x << 11)) >>> 0
    this.x = this.y
    this.y = this.z
    this.z = this.w
    this.w = (this.w ^ (this.w >>> 19) ^ t ^ (t >>> 8)) >>> 0
    return this.w
  }

  /** Uniform integer in [0, n) by rand 0.8.5's widening-multiply rejection method; 0 < n < 2^32. */
  genRange(n: number): number {
    const zone = ((n << Math.clz32(n)) >>> 0) - 1
    for (;;) {
      const vl = this.nextU32()
      const vh = this.nextU32()
      let aHigh: number
      let bLow: number
      let bHigh: number
      if (n <= TWO_21) {
        // vl·n < 2^53: exact in a double, no limb split needed.
        const a = vl * n
        const b = vh * n
        aHigh = Math.floor(a / TWO_32)
        bLow = b % TWO_32
        bHigh = Math.floor(b / TWO_32)
      } else {
        aHigh = mulHigh32(vl, n)
        const b = mulParts(vh, n)
        bLow = b[0]
        bHigh = b[1]
      }
      const mid = aHigh + bLow
      const top = mid >= TWO_32 ? mid - TWO_32 : mid
      const hi = bHigh + (mid >= TWO_32 ? 1 : 0)
      if (top <= zone) return hi
    }
  }

  /** Uniform double in [0, 1): the top 53 bits of next_u64. */
  nextF64(): number {
    const lo = this.nextU32()
    const hi = this.nextU32()
    return (hi * TWO_21 + (lo >>> 11)) / TWO_53
  }
}

const PARTS: [number, number] = [0, 0]

/** [low32, high32] of the exact product of two u32 values (16-bit limbs keep every step exact). */
function mulParts(a: number, b: number): [number, number] {
  const p0 = a * (b & 0xffff)
  const p1 = a * (b >>> 16)
  const t = p0 + (p1 % 65536) * 65536
  PARTS[0] = t % TWO_32
  PARTS[1] = Math.floor(t / TWO_32) + Math.floor(p1 / 65536)
  return PARTS
}

function mulHigh32(a: number, b: number): number {
  return mulParts(a, b)[1]
}
