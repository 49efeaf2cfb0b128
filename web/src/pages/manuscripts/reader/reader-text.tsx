// The text of the reader page: the reader box and what reads it (keyboard walk, heat strip).
import { memo, type RefObject } from 'react';
import { HeatStrip } from '../../../components/insights/heat-strip.tsx';
import { ParagraphKeys } from './paragraph-keys.tsx';
import { useProgressiveLayout } from './use-progressive-layout.ts';

/**
 * The manuscript's text. A memo component: the page around it renders again on every move of
 * the reading position (issue 18), the book's text and its keyboard walk need not.
 */
export const ReaderText = memo(function ReaderText({
  boxRef,
  html,
  manuscriptId,
  isAuthor,
}: {
  boxRef: RefObject<HTMLDivElement | null>;
  html: string;
  manuscriptId: number;
  isAuthor: boolean;
}) {
  useProgressiveLayout(boxRef, html);
  return (
    <>
      {/* Normalised, allow-listed HTML from our own server (API.md reader data). */}
      <div
        ref={boxRef}
        className="reader-box"
        data-testid="reader-box"
        data-layout="lazy"
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <ParagraphKeys html={html} />
      {isAuthor ? <HeatStrip manuscriptId={manuscriptId} html={html} /> : null}
      <p aria-hidden="true" className="reader-end">
        ❦
      </p>
    </>
  );
});
