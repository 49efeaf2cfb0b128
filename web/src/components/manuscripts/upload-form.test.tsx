import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type DocumentStateResponse, type UploadResponse } from '@margins/common';
import { ApiError } from '../../api/client.ts';
import { loadPage } from '../../lib/navigation.ts';
import { UploadPage } from '../../pages/manuscripts/upload-page.tsx';
import { buildConfig } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { sendUpload } from './upload-request.ts';

vi.mock('./upload-request.ts', () => ({ sendUpload: vi.fn() }));
vi.mock('../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const PROCESS_ID = '3f1e8a52-0000-4000-8000-000000000002';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function docx(name = 'novel.docx'): File {
  return new File(['PK fake docx bytes'], name, {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  });
}

/** The upload answers at once with an inking manuscript; the state calls answer in turn. */
function serverAnswers(states: DocumentStateResponse[]) {
  const manuscript = buildManuscript({ id: 41, title: 'The Salt Road', inking: true });
  const uploadResponse: UploadResponse = { manuscript, process_id: PROCESS_ID };
  vi.mocked(sendUpload).mockImplementation((_url, _form, onProgress) => {
    onProgress(0.5);
    return { promise: Promise.resolve(uploadResponse), abort: vi.fn() };
  });
  let call = 0;
  const fetchMock = vi.fn(async (_url: string) => {
    const state = states[Math.min(call, states.length - 1)];
    call += 1;
    return jsonResponse(200, state);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { manuscript, fetchMock };
}

function chooseAndUpload(file = docx()) {
  fireEvent.change(screen.getByTestId('manuscript-file'), { target: { files: [file] } });
  fireEvent.click(screen.getByRole('button', { name: 'Upload manuscript' }));
}

async function seconds(count: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(count * 1000);
  });
}

const PENDING: DocumentStateResponse = { status: 'PENDING', message: '', manuscript: null };

describe('UploadForm on the upload page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    vi.mocked(loadPage).mockReset();
    vi.mocked(sendUpload).mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function renderPage() {
    renderWithApp(<UploadPage />, { config: buildConfig('upload', { categories: [] }) });
  }

  it('refuses several dropped files with "Only one file at a time please"', () => {
    renderPage();
    const zone = document.querySelector('[data-dropzone]') as HTMLElement;
    fireEvent.drop(zone, { dataTransfer: { files: [docx('a.docx'), docx('b.docx')] } });
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.oneFileAtATime);
    expect(sendUpload).not.toHaveBeenCalled();

    // One file is fine, and shows its name.
    fireEvent.drop(zone, { dataTransfer: { files: [docx('chapter-one.docx')] } });
    expect(screen.queryByText(MESSAGES.oneFileAtATime)).toBeNull();
    expect(zone.textContent).toContain('chapter-one.docx');
  });

  it('sends the file in docxfile with the optional fields, then polls until SUCCESS opens the reader', async () => {
    const { manuscript, fetchMock } = serverAnswers([
      PENDING,
      { status: 'PROGRESS', message: '', manuscript: null },
      {
        status: 'SUCCESS',
        message: 'manuscript saved!',
        manuscript: { ...buildManuscript({ id: 41 }) },
      },
    ]);
    renderPage();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'The Salt Road' } });
    chooseAndUpload();

    const [url, form] = vi.mocked(sendUpload).mock.calls[0] ?? [];
    expect(url).toBe('/manuscript/document');
    expect((form as FormData).get('docxfile')).toBeInstanceOf(File);
    expect(((form as FormData).get('docxfile') as File).name).toBe('novel.docx');
    expect((form as FormData).get('title')).toBe('The Salt Road');
    expect((form as FormData).get('summary')).toBeNull();

    await seconds(0);
    expect(screen.getByText(/into a reading page/)).toBeTruthy();
    await seconds(2);
    expect(loadPage).not.toHaveBeenCalled();
    await seconds(1);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(`/manuscript/document/state/${PROCESS_ID}`);
    expect(loadPage).toHaveBeenCalledWith(`/manuscript/document/reader/${manuscript.id}`);
  });

  it('shows the conversion report, and waits for the author when something could not be kept', async () => {
    const note =
      '2 pictures on other websites were not loaded: we never fetch pictures from elsewhere. Put them into the document itself to show them.';
    serverAnswers([
      {
        status: 'SUCCESS',
        message: 'manuscript saved!',
        manuscript: { ...buildManuscript({ id: 42 }) },
        report: {
          words: 1234,
          chapters: 3,
          images: 1,
          footnotes: 0,
          tables: 0,
          formulas: 2,
          notes: [note],
        },
      },
    ]);
    renderPage();
    chooseAndUpload();
    await seconds(1);
    const report = document.querySelector('[data-conversion-report]');
    expect(report?.textContent).toContain('1,234 words · 3 chapters · 1 picture · 2 formulas');
    expect(screen.getByRole('list', { name: 'What could not be kept' }).textContent).toContain(
      note,
    );
    expect(loadPage).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(loadPage).toHaveBeenCalledWith('/manuscript/document/reader/42');
  });

  it('shows the busy message at 10 pending answers and the longer one at 30', async () => {
    serverAnswers([PENDING]);
    renderPage();
    chooseAndUpload();
    await seconds(9);
    expect(screen.queryByText(MESSAGES.helpersBusy)).toBeNull();
    await seconds(1);
    expect(screen.getByText(MESSAGES.helpersBusy)).toBeTruthy();
    await seconds(20);
    expect(screen.queryByText(MESSAGES.helpersBusy)).toBeNull();
    expect(screen.getByText(MESSAGES.takingLonger)).toBeTruthy();
    await seconds(30);
    expect(screen.getByRole('alert').textContent).toContain(MESSAGES.noBot);
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('says the word limit is reached on OVER_WORD_LIMIT', async () => {
    serverAnswers([PENDING, { status: 'OVER_WORD_LIMIT', message: 'over', manuscript: null }]);
    renderPage();
    chooseAndUpload();
    await seconds(2);
    expect(screen.getByRole('alert').textContent).toContain(MESSAGES.overWordLimit);
    expect(screen.getByRole('button', { name: 'Choose another file' })).toBeTruthy();
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('shows the server’s error text when the upload is refused', async () => {
    vi.mocked(sendUpload).mockReturnValue({
      promise: Promise.reject(
        new ApiError(415, 'This looks like a PDF. Save it as DOCX or plain text and upload again.'),
      ),
      abort: vi.fn(),
    });
    renderPage();
    chooseAndUpload(docx('scan.txt'));
    await seconds(0);
    expect(screen.getByRole('alert').textContent).toContain('This looks like a PDF.');
  });
});
