// Opening a project by dropping its folder on the window. The page cannot
// read where a dropped item is; it hands the File to window.mino, whose
// preload reads the path and main checks it exactly as the picker's choice.
// Here: only one item at a time, and a highlight while something is dragged over.
import { useRef, useState, type DragEvent } from 'react';
import type { OpenProjectResult } from '../../../../shared/ipc';
import { api } from '../../lib/api';

export const DROP_ONE_FOLDER = 'Drop one folder at a time to open it as a project.';
export const DROP_NOTHING = 'Only a folder can be dropped here: drag a project folder from your file manager.';

interface FolderDrop {
  /** Something that may be a folder is being dragged over the target. */
  dragging: boolean;
  handlers: {
    onDragEnter(event: DragEvent): void;
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent): void;
    onDrop(event: DragEvent): void;
  };
}

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** `open` runs the request (the caller shows progress and errors); `refuse` shows a message without asking main. */
export function useFolderDrop(open: (request: () => Promise<OpenProjectResult>) => void, refuse: (message: string) => void): FolderDrop {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed; count them to know when the pointer left the target.
  const depth = useRef(0);
  return {
    dragging,
    handlers: {
      onDragEnter(event) {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      },
      onDragOver(event) {
        if (!carriesFiles(event)) return;
        // Without this the drop would not be allowed (and the browser would open the file instead).
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave(event) {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop(event) {
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        const files = Array.from(event.dataTransfer?.files ?? []);
        if (files.length === 0) return refuse(DROP_NOTHING);
        if (files.length > 1) return refuse(`${DROP_ONE_FOLDER} ${files.length} items were dropped.`);
        const [dropped] = files;
        open(() => api.openDroppedProject(dropped));
      },
    },
  };
}
