/**
 * Runs `work` once the next frame is rendered: in the first task after its animation frame,
 * given that frame's start time. A layout read there is the one the frame made, not one forced
 * early inside the task that changed the page (a book's first layout, issue 18). Returns a
 * cancel function.
 */
export function afterNextFrame(work: (frameStart: number) => void): () => void {
  let timer = 0;
  const frame = window.requestAnimationFrame((started) => {
    timer = window.setTimeout(() => work(started), 0);
  });
  return () => {
    window.cancelAnimationFrame(frame);
    window.clearTimeout(timer);
  };
}
