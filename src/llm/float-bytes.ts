/**
 * Little-endian float32 or float64 bytes (an embedding on the wire, a vector in the model cache) as
 * numbers. Read through a typed array over an aligned copy: Buffer.from hands back a slice of its pool
 * at any offset, and a typed array needs one aligned to its width; per-value reads (readFloatLE) cost
 * several times as much on tens of thousands of 1,536-value vectors.
 */

/** Whether typed arrays use little-endian order here (every platform Node ships for but s390x). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

export function floatsFromBytes(bytes: Uint8Array, width: 4 | 8): number[] {
  const count = bytes.length / width
  const out = new Array<number>(count)
  if (!LITTLE_ENDIAN) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    for (let i = 0; i < count; i++) out[i] = width === 4 ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true)
    return out
  }
  const aligned = new ArrayBuffer(bytes.length)
  new Uint8Array(aligned).set(bytes)
  const values = width === 4 ? new Float32Array(aligned) : new Float64Array(aligned)
  for (let i = 0; i < count; i++) out[i] = values[i]!
  return out
}
