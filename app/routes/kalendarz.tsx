import { calendarEmbedUrl } from "~/content/church";

export default function Calendar() {
  return (
    <div className="page">
      <h1>Kalendarz</h1>
      <iframe className="calendar" title="Kalendarz wydarzeń zboru" src={calendarEmbedUrl} width="800" height="600" />
    </div>
  );
}
