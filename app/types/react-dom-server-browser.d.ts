// React's web-streams server renderer, which @types/react-dom types only
// under react-dom/server (Node resolves that name to the Node renderer).
declare module "react-dom/server.browser" {
  export { renderToReadableStream } from "react-dom/server";
}
