import { CSRF_HEADER, MESSAGES, uploadResponse, type UploadResponse } from '@margins/common';
import { ApiError, fieldErrorsOf, readCsrfToken } from '../../api/client.ts';

/** An upload under way: its answer, and how to stop it. */
interface UploadHandle {
  promise: Promise<UploadResponse>;
  abort: () => void;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/**
 * Sends a multipart form with XMLHttpRequest, which (unlike fetch) reports upload progress:
 * cookies included, the CSRF header from the csrf_token cookie. `onProgress` gets 0…1.
 * A non-success answer rejects with an ApiError carrying the server's `error` text.
 */
export function sendUpload(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const request = new XMLHttpRequest();
  const promise = new Promise<UploadResponse>((resolve, reject) => {
    request.open('POST', url);
    request.withCredentials = true;
    request.responseType = 'text';
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader(CSRF_HEADER, readCsrfToken());
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        const parsed = uploadResponse.safeParse(body);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(request.status, MESSAGES.unexpectedResponse, {}, body));
        return;
      }
      const error =
        body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
          ? body.error
          : MESSAGES.badStatus(request.status);
      reject(new ApiError(request.status, error, fieldErrorsOf(body), body));
    });
    request.addEventListener('error', () => reject(new ApiError(0, MESSAGES.serverCommunication)));
    request.addEventListener('abort', () =>
      reject(new DOMException('The upload was cancelled.', 'AbortError')),
    );
    request.send(form);
  });
  return { promise, abort: () => request.abort() };
}
