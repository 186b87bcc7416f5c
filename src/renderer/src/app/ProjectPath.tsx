// A project path cut in the middle when it does not fit: the start (where it
// is) and the folder's name (which project) stay; the cut is marked with an
// ellipsis. The full path is in the owner's title.
export function splitProjectPath(path: string): { head: string; tail: string } {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return { head: '', tail: path };
  return { head: trimmed.slice(0, cut + 1), tail: trimmed.slice(cut + 1) };
}

export function ProjectPath({ path }: { path: string }) {
  const { head, tail } = splitProjectPath(path);
  return (
    <bdi dir="ltr" className="project-path">
      <span className="project-path-head">{head}</span>
      <span className="project-path-tail">{tail}</span>
    </bdi>
  );
}
