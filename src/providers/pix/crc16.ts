const POLYNOMIAL = 0x1021;
const INITIAL = 0xffff;

const TABLE: readonly number[] = (() => {
  const table: number[] = [];
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ POLYNOMIAL) & 0xffff : (crc << 1) & 0xffff;
    }
    table.push(crc);
  }
  return table;
})();

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), the checksum the
 * BACEN BR Code manual prescribes for field 63.
 *
 * @param data - Text to checksum; hashed as its UTF-8 bytes, which for a BR Code is plain ASCII.
 * @returns Four uppercase hexadecimal digits, zero-padded (e.g. `"29B1"` for `"123456789"`).
 */
export function crc16Ccitt(data: string): string {
  let crc = INITIAL;
  for (const byte of new TextEncoder().encode(data)) {
    // Indexes are always 0..255, so the table lookup cannot miss.
    crc = ((crc << 8) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0)) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
