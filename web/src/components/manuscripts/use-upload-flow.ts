import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MANUSCRIPT_FILE_FIELD,
  type ConversionReport,
  type Manuscript,
  type UploadResponse,
} from '@margins/common';
import { errorMessage } from '../../api/client.ts';
import { fetchDocumentState } from '../../api/manuscripts.ts';
import { pollDocumentState } from './document-processing.ts';
import { sendUpload } from './upload-request.ts';

/** Where an upload is: sending the file, converting it, done, or stopped with a message. */
export type UploadFlowState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string; fraction: number }
  | {
      phase: 'processing';
      fileName: string;
      manuscript: Manuscript;
      count: number;
      notice: string | null;
    }
  | {
      phase: 'done';
      fileName: string;
      manuscript: Manuscript;
      report: ConversionReport | null;
      /** Something could not be kept: the author reads the report, then opens the manuscript. */
      held: boolean;
    }
  | { phase: 'failed'; fileName: string; message: string };

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Sends a file (multipart, field `docxfile`, with any extra fields) to `url` with a progress
 * bar, then polls the conversion every second (SPEC §4) until it is done or fails.
 * `onUploaded` hears of the (inking) manuscript as soon as the server has it; `onDone` when
 * it can be read — at once, or, when the conversion report says something could not be kept,
 * once the author has read it and chosen to go on (`proceed`). Leaving the page stops both the
 * upload and the polling.
 */
export function useUploadFlow({
  url,
  onUploaded,
  onDone,
}: {
  url: string;
  onUploaded?: (response: UploadResponse) => void;
  onDone?: (manuscript: Manuscript) => void;
}) {
  const [state, setState] = useState<UploadFlowState>({ phase: 'idle' });
  const stopRef = useRef<(() => void) | null>(null);
  const callbacks = useRef({ onUploaded, onDone });
  useEffect(() => {
    callbacks.current = { onUploaded, onDone };
  });

  useEffect(() => () => stopRef.current?.(), []);

  const start = useCallback(
    async (file: File, fields: Record<string, string | string[]> = {}) => {
      stopRef.current?.();
      const controller = new AbortController();
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
      }
      form.append(MANUSCRIPT_FILE_FIELD, file, file.name);
      const fileName = file.name;
      setState({ phase: 'uploading', fileName, fraction: 0 });

      const upload = sendUpload(url, form, (fraction) =>
        setState((current) => (current.phase === 'uploading' ? { ...current, fraction } : current)),
      );
      stopRef.current = () => {
        controller.abort();
        upload.abort();
      };

      let response: UploadResponse;
      try {
        response = await upload.promise;
      } catch (error) {
        if (isAbort(error)) return;
        setState({ phase: 'failed', fileName, message: errorMessage(error) });
        return;
      }
      const { manuscript } = response;
      setState({ phase: 'processing', fileName, manuscript, count: 0, notice: null });
      callbacks.current.onUploaded?.(response);

      try {
        const outcome = await pollDocumentState({
          processId: response.process_id,
          fetchState: fetchDocumentState,
          signal: controller.signal,
          onUpdate: (update) => {
            if (update.kind !== 'pending') return;
            setState({
              phase: 'processing',
              fileName,
              manuscript,
              count: update.count,
              notice: update.notice,
            });
          },
        });
        if (outcome.kind === 'success') {
          const ready = outcome.manuscript ?? { ...manuscript, inking: false };
          const { report } = outcome;
          const held = report !== null && report.notes.length > 0;
          setState({ phase: 'done', fileName, manuscript: ready, report, held });
          if (!held) callbacks.current.onDone?.(ready);
        } else if (outcome.kind === 'failed') {
          setState({ phase: 'failed', fileName, message: outcome.message });
        }
      } catch (error) {
        if (!isAbort(error)) throw error;
      }
    },
    [url],
  );

  const reset = useCallback(() => {
    stopRef.current?.();
    stopRef.current = null;
    setState({ phase: 'idle' });
  }, []);

  /** The author has read the report of a held upload: go on to the manuscript. */
  const proceed = useCallback(() => {
    setState((current) => {
      if (current.phase !== 'done' || !current.held) return current;
      callbacks.current.onDone?.(current.manuscript);
      return { ...current, held: false };
    });
  }, []);

  const busy = state.phase === 'uploading' || state.phase === 'processing';
  return { state, start, reset, proceed, busy };
}
