import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/features/auth/auth.server";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import { requireUserOrKeep } from "~/features/kept-forms/kept-forms.server";
import { keptTestimonyForm, submitTestimonyForm } from "~/features/church/testimony-form.server";
import { TestimonyForm } from "~/features/church/testimony-form";
import { BackLink } from "~/components/layout";
import { PastorBar } from "~/components/pastor";
import { redirectWithFlash } from "~/http/flash.server";
import { UPLOAD_MESSAGES } from "~/services/upload.server";
import { seo } from "~/features/seo/seo";
import { ADD_TESTIMONY_PATH, PASTOR_TESTIMONIES_PATH } from "~/lib/paths";
import { LONG_FORM_MAX_BYTES, readSmallForm } from "~/http/small-form.server";
import { KEPT_PARAM } from "~/features/kept-forms/messages";

export const meta: MetaFunction = (args) => seo(args, { page: "Nowe świadectwo" });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const kept = await keptTestimonyForm(new URL(request.url).searchParams.get(KEPT_PARAM), user, "add");
  return {
    email: user.email,
    csrf: user.csrf,
    values: kept?.values ?? { title: "", text: "", author: "", hidden: false },
    kept: kept ? { key: kept.key, message: kept.message } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // A post after the session ended is kept, and brought back after sign-in.
  const user = await requireUserOrKeep(request, { form: "testimony-add", path: ADD_TESTIMONY_PATH });
  if (Number(request.headers.get("Content-Length")) > URLENCODED_FORM_MAX_BYTES) {
    return data({ error: UPLOAD_MESSAGES.malformed, refused: null }, { status: 413 });
  }
  const form = await readSmallForm(request, LONG_FORM_MAX_BYTES);
  const outcome = await submitTestimonyForm(form, { kind: "add" }, user);
  if (outcome.ok) return redirectWithFlash(PASTOR_TESTIMONIES_PATH, outcome.message);
  return data({ error: outcome.error, refused: outcome.refused }, { status: outcome.status });
}

export default function AddTestimony() {
  const { email, values, kept } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="page pastor">
      <PastorBar email={email} />
      <BackLink to={PASTOR_TESTIMONIES_PATH} />
      <h1>Nowe świadectwo</h1>
      <TestimonyForm
        action={ADD_TESTIMONY_PATH}
        submitLabel="dodaj"
        values={reply?.refused?.values ?? values}
        version={0}
        errors={reply?.refused?.errors}
        error={reply?.error}
        kept={kept}
      />
    </section>
  );
}
