// Compound File Binary (OLE2) containers: legacy .doc files, and password-protected DOCX files,
// which Office wraps in a CFB with "EncryptionInfo" and "EncryptedPackage" streams.

const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const END_OF_CHAIN = 0xfffffffe;
const MAX_SECTOR = 0xfffffffa;
const DIRECTORY_ENTRY_BYTES = 128;
const HEADER_DIFAT_COUNT = 109;

export function looksLikeCfb(bytes: Uint8Array): boolean {
  return CFB_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/**
 * The names of the streams and storages in a CFB container. Falls back to a byte search for the
 * names we care about when the container is too damaged to walk.
 */
export function listCfbNames(bytes: Uint8Array): Set<string> {
  try {
    return walkDirectory(bytes);
  } catch {
    return searchNames(bytes, ['EncryptionInfo', 'EncryptedPackage', 'WordDocument']);
  }
}

function walkDirectory(bytes: Uint8Array): Set<string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorShift = view.getUint16(0x1e, true);
  if (sectorShift !== 9 && sectorShift !== 12) throw new Error('bad sector size');
  const sectorSize = 1 << sectorShift;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;
  const entriesPerSector = sectorSize / 4;
  const maxSectors = Math.ceil(bytes.length / sectorSize) + 1;

  // The FAT sectors are listed in the header (first 109) and then in a chain of DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_COUNT; i += 1) {
    const sector = view.getUint32(0x4c + i * 4, true);
    if (sector <= MAX_SECTOR) fatSectors.push(sector);
  }
  let difatSector = view.getUint32(0x44, true);
  for (let guard = 0; difatSector <= MAX_SECTOR && guard < maxSectors; guard += 1) {
    const base = sectorOffset(difatSector);
    for (let i = 0; i < entriesPerSector - 1; i += 1) {
      const sector = view.getUint32(base + i * 4, true);
      if (sector <= MAX_SECTOR) fatSectors.push(sector);
    }
    difatSector = view.getUint32(base + (entriesPerSector - 1) * 4, true);
  }

  const nextSector = (sector: number): number => {
    const fatIndex = Math.floor(sector / entriesPerSector);
    const fatSector = fatSectors[fatIndex];
    if (fatSector === undefined) throw new Error('sector outside FAT');
    return view.getUint32(sectorOffset(fatSector) + (sector % entriesPerSector) * 4, true);
  };

  const names = new Set<string>();
  let sector = view.getUint32(0x30, true);
  for (let guard = 0; sector !== END_OF_CHAIN; guard += 1) {
    if (sector > MAX_SECTOR || guard > maxSectors) throw new Error('broken directory chain');
    const base = sectorOffset(sector);
    if (base + sectorSize > bytes.length) throw new Error('directory past end of file');
    for (let entry = base; entry < base + sectorSize; entry += DIRECTORY_ENTRY_BYTES) {
      const nameBytes = view.getUint16(entry + 0x40, true);
      const objectType = bytes[entry + 0x42];
      if (objectType === 0 || nameBytes < 2 || nameBytes > 64) continue;
      let name = '';
      for (let i = 0; i < nameBytes - 2; i += 2) {
        name += String.fromCharCode(view.getUint16(entry + i, true));
      }
      names.add(name);
    }
    sector = nextSector(sector);
  }
  return names;
}

function searchNames(bytes: Uint8Array, candidates: string[]): Set<string> {
  const found = new Set<string>();
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const name of candidates) {
    if (haystack.includes(Buffer.from(name, 'utf16le'))) found.add(name);
  }
  return found;
}
