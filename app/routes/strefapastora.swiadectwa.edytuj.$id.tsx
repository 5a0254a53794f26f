import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { getPastorTestimony } from "~/features/church/testimonies.server";
import { keptTestimonyForm, submitTestimonyForm } from "~/features/church/testimony-form.server";
import { TestimonyForm } from "~/features/church/testimony-form";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { redirectWithFlash } from "~/http/flash.server";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { PASTOR_TESTIMONIES_PATH, editTestimonyPath } from "~/lib/paths";
import { LONG_FORM_MAX_BYTES, readSmallForm } from "~/http/small-form.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";

export const meta: MetaFunction = (args) => seo(args, { page: "Edycja świadectwa" });

/** The id of the address, or 0 (no testimony has it) when it is not a plain number. */
const idOf = (param: string | undefined) => (param && /^[1-9][0-9]{0,9}$/.test(param) ? Number(param) : 0);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const testimony = await getPastorTestimony(idOf(params.id));
  if (!testimony) return data({ email: user.email, csrf: user.csrf, testimony: null, kept: null }, { status: 404 });
  const kept = await keptTestimonyForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "edit");
  return {
    email: user.email,
    csrf: user.csrf,
    // A kept edit still counts from the version it began from: what changed meanwhile is not overwritten unseen.
    testimony: kept ? { id: testimony.id, ...kept.values, version: kept.version } : testimony,
    kept: kept ? { key: kept.key, message: kept.message } : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "testimony-edit", path: editTestimonyPath(idOf(params.id)) });
  const id = idOf(params.id);
  if (Number(request.headers.get("Content-Length")) > URLENCODED_FORM_MAX_BYTES) {
    return data({ error: UPLOAD_MESSAGES.malformed, refused: null }, { status: 413 });
  }
  const form = await readSmallForm(request, LONG_FORM_MAX_BYTES);
  const outcome = await submitTestimonyForm(form, { kind: "edit", id }, user);
  if (outcome.ok) return redirectWithFlash(PASTOR_TESTIMONIES_PATH, outcome.message);
  return data({ error: outcome.error, refused: outcome.refused }, { status: outcome.status });
}

export default function EditTestimony() {
  const { email, testimony, kept } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  if (!testimony) {
    return (
      <section className="page pastor">
        <PastorBar email={email} />
        <h1 className="empty">Nie ma takiego świadectwa</h1>
        <BackLink to={PASTOR_TESTIMONIES_PATH} />
      </section>
    );
  }
  const refused = reply?.refused ?? null;
  const conflict = refused?.conflict;
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_TESTIMONIES_PATH} />
      <h1>Edycja świadectwa</h1>
      <TestimonyForm
        action={editTestimonyPath(testimony.id)}
        submitLabel="zapisz"
        values={refused?.values ?? testimony}
        version={refused?.version ?? testimony.version}
        errors={refused?.errors}
        error={reply?.error}
        kept={kept}
        conflict={
          conflict
            ? { changed: conflict.changed, current: conflict.current, currentHref: editTestimonyPath(testimony.id) }
            : null
        }
      />
    </section>
  );
}
