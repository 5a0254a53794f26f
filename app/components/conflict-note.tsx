/**
 * What a save refused over a newer version shows (an article or an album):
 * what differs, the stored version read-only, and the two ways on: save the
 * pastor's own version over it, or drop his changes and open the stored one.
 */
export function ConflictNote({
  changed,
  sameNote,
  yoursNote,
  currentHref,
  current,
}: {
  /** Polish names of what differs, e.g. 'tytuł', 'kolejność zdjęć'. */
  changed: string[];
  /** Said when nothing shown differs. */
  sameNote: string;
  /** Where the pastor's own text is and what the button does with it. */
  yoursNote: string;
  currentHref: string;
  /** The stored version, field by field; `long` keeps its line breaks. */
  current: { label: string; value: string; long?: boolean }[];
}) {
  return (
    <div className="conflict">
      <p>
        {changed.length ? `Obecna wersja różni się od Twojej: ${changed.join(", ")}.` : sameNote} {yoursNote}{" "}
        <a href={currentHref}>porzuć swoje zmiany i otwórz obecną wersję</a>.
      </p>
      <h2>Obecna wersja</h2>
      <dl className="conflict-current">
        {current.map(({ label, value, long }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={long ? "conflict-text" : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
