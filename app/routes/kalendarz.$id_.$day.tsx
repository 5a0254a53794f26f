// One occurrence of a recurring event: the same page as the event's, for its day.
export { default, loader, meta } from "./kalendarz.$id";
