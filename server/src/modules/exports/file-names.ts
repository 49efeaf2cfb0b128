/** "My Novel – feedback.docx": the title kept readable, only characters no file system minds. */
export function exportFileName(title: string, extension: string, suffix = 'feedback'): string {
  const clean =
    title
      .normalize('NFC')
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || 'manuscript';
  return `${clean} – ${suffix}.${extension}`;
}
