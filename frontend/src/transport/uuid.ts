// Session ids travel as 16 raw bytes in front of every binary WebSocket frame.

const HEX = "0123456789abcdef";

/** The 16 bytes of a canonical uuid string (`8-4-4-4-12` hex). */
export function uuidToBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a uuid: ${uuid}`);
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The canonical lowercase uuid string of 16 bytes. */
export function bytesToUuid(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < 16; i++) {
    const b = bytes[i] ?? 0;
    out += HEX[b >> 4]! + HEX[b & 15]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) out += "-";
  }
  return out;
}
