// Fills the benchmark database: 200 articles and 20 albums of 40 photos.
// Run by bench/run.mjs before the server starts, as
//   node --import tsx bench/seed.ts
// with the server's environment (DATABASE_URL, DATA_DIR, SEED_DEMO=1, …).
// Connecting migrates and adds the demo content, as the server would; the
// rest is topped up to the wanted counts. 40 generated photos go through the
// real upload pipeline (storeImage: large JPEG, WebP and AVIF variants) and are then
// shared by every album, so page weights are those of real photos.
// The last line on stdout is JSON describing what was seeded.
import { asc, count, desc, eq, max } from "drizzle-orm";
import { articles, galleries, galleryImages } from "~/services/schema";
import { closeDb, db } from "~/services/db.server";
import { type StoredImage, storeImage } from "~/services/images.server";
import { storage } from "~/services/storage.server";
import { variantKey, variantWidths } from "../app/lib/image-variants";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchPhoto } from "./photos";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 200);
const ALBUMS = Number(process.env.BENCH_ALBUMS ?? 20);
const PHOTOS_PER_ALBUM = Number(process.env.BENCH_PHOTOS_PER_ALBUM ?? 40);
const DISTINCT_PHOTOS = Number(process.env.BENCH_DISTINCT_PHOTOS ?? 8);

const log = (message: string) => process.stderr.write(`  seed: ${message}\n`);

const HEADERS = [
  "Nabożeństwo niedzielne",
  "Spotkanie młodzieży",
  "Wieczór modlitwy za miasto",
  "Szkółka niedzielna – nowy rok",
  "Koncert uwielbienia",
  "Wyjazd zborowy w góry",
  "Kurs biblijny dla początkujących",
  "Zbiórka darów dla potrzebujących",
  "Dzień dziecka w zborze",
  "Spotkanie kobiet",
  "Śniadanie dla mężczyzn",
  "Wieczerza Pańska",
  "Chrzest wiary",
  "Gość z misji",
  "Remont sali – prośba o pomoc",
  "Tydzień modlitwy",
];

const SENTENCES = [
  "Serdecznie zapraszamy wszystkich, którzy chcą lepiej poznać Boga i naszą wspólnotę.",
  "Spotkanie rozpocznie się o godzinie 17:00 w sali na parterze, wejście od strony parkingu.",
  "Po części oficjalnej przewidziany jest poczęstunek i czas na rozmowy przy kawie.",
  "Prosimy o modlitwę za przygotowania oraz za wszystkie osoby zaangażowane w służbę.",
  "Dzieci zapraszamy na zajęcia prowadzone równolegle przez nauczycieli szkółki niedzielnej.",
  "Szczegółowe informacje można uzyskać u pastora lub u liderów grup domowych.",
  "W ubiegłym roku w wydarzeniu wzięło udział ponad sto osób z Wieliczki i okolic.",
  "Słowo Boże przypomina nam, że wiara działa przez miłość, a miłość nigdy nie ustaje.",
  "Zapisy prowadzimy do końca miesiąca, liczba miejsc jest ograniczona.",
  "Dziękujemy wszystkim za ofiarność i pomoc przy organizacji poprzedniego spotkania.",
  "Zachęcamy, aby przyprowadzić ze sobą przyjaciół, sąsiadów i rodzinę.",
  "Nabożeństwo będzie transmitowane na żywo dla osób, które nie mogą przyjść osobiście.",
  "Tegoroczne hasło brzmi: „Bądźcie mocni w Panu i w potędze mocy jego”.",
  "Koszt udziału obejmuje materiały, wyżywienie oraz ubezpieczenie uczestników.",
  "Wszystkie zebrane środki zostaną przekazane na pomoc rodzinom w potrzebie.",
  "Więcej zdjęć z tego dnia można obejrzeć w galerii na naszej stronie.",
  "Przypominamy, że w czasie wakacji spotkania grup domowych odbywają się co dwa tygodnie.",
  "Chwała Bogu za każdą osobę, która w tym roku po raz pierwszy przyszła do zboru.",
];

const ALBUM_NAMES = [
  "Wieczór uwielbienia",
  "Piknik rodzinny",
  "Obóz młodzieżowy",
  "Chrzest w jeziorze",
  "Dzień dziecka",
  "Koncert kolęd",
  "Wyjazd integracyjny",
  "Święto dziękczynienia",
  "Konferencja kobiet",
  "Rajd rowerowy",
  "Jubileusz zboru",
  "Półkolonie w zborze",
  "Nabożeństwo ekumeniczne",
  "Warsztaty muzyczne",
  "Wigilia zborowa",
  "Sprzątanie parku",
  "Spotkanie seniorów",
  "Festyn parafialny",
];

const MONTHS = [
  "styczeń",
  "luty",
  "marzec",
  "kwiecień",
  "maj",
  "czerwiec",
  "lipiec",
  "sierpień",
  "wrzesień",
  "październik",
  "listopad",
  "grudzień",
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;
// Newer than the demo content, so the newest article and album are seeded here.
const NEWEST = Date.UTC(2025, 8, 28, 10);

function articleText(i: number): string {
  const paragraphs = 2 + (i % 5);
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const n = 2 + ((i + p) % 4);
    const sentences = Array.from({ length: n }, (_, s) => SENTENCES[(i * 7 + p * 5 + s * 3) % SENTENCES.length]);
    out.push(sentences.join(" "));
  }
  return out.join("\n\n");
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PHOTO_CACHE = path.join(HERE, "out", "photos");

/**
 * The i-th bench picture, kept in bench/out/photos/ once made: drawing a
 * 12 MP picture takes seconds, and the same index always gives the same
 * bytes (named by a digest of bench/photos.ts, so a change there makes
 * them again). Only the drawing is saved; every run stores them through
 * the pipeline.
 */
async function original(i: number): Promise<Buffer> {
  const digest = createHash("sha256")
    .update(fs.readFileSync(path.join(HERE, "photos.ts")))
    .digest("hex")
    .slice(0, 12);
  const file = path.join(PHOTO_CACHE, `${digest}-${i}.jpg`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const photo = await benchPhoto(i);
  fs.mkdirSync(PHOTO_CACHE, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, photo);
  fs.renameSync(`${file}.tmp`, file);
  return photo;
}

async function storePhotos(): Promise<StoredImage[]> {
  const stored: StoredImage[] = [];
  const started = performance.now();
  for (let i = 0; i < DISTINCT_PHOTOS; i++) {
    const day = isoDay(NEWEST - i * 11 * DAY).replaceAll("-", "");
    stored.push(await storeImage(await original(i), `IMG_${day}_${1000 + i}.jpg`, "galeria"));
  }
  log(`${stored.length} photos stored through the pipeline in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return stored;
}

async function main() {
  const database = await db();
  const photos = await storePhotos();

  // Articles: topped up to ARTICLES, dated every nine days back from NEWEST.
  const [{ n: haveArticles }] = await database.select({ n: count() }).from(articles);
  const newArticles = [];
  for (let i = 0; i < ARTICLES - haveArticles; i++) {
    const when = NEWEST - i * 9 * DAY;
    // Distinct photos on the first screens of the list (a browser fetches a
    // repeated address once); every seventh article has none.
    const photo = i % 7 === 6 ? null : photos[i % photos.length];
    newArticles.push({
      id: String(when + i),
      header: `${HEADERS[i % HEADERS.length]}${i >= HEADERS.length ? ` (${Math.floor(i / HEADERS.length) + 1})` : ""}`,
      text: articleText(i),
      date: isoDay(when),
      imageKey: photo?.key ?? null,
      imageWidth: photo?.width ?? null,
      imageHeight: photo?.height ?? null,
    });
  }
  for (let i = 0; i < newArticles.length; i += 100) {
    await database.insert(articles).values(newArticles.slice(i, i + 100));
  }

  // Albums: new ones until there are ALBUMS, one a month back from NEWEST.
  const [{ n: haveAlbums }] = await database.select({ n: count() }).from(galleries);
  for (let i = 0; i < ALBUMS - haveAlbums; i++) {
    const d = new Date(NEWEST);
    d.setUTCMonth(d.getUTCMonth() - i);
    await database.insert(galleries).values({
      title: `${ALBUM_NAMES[i % ALBUM_NAMES.length]} – ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
      description: SENTENCES[i % SENTENCES.length],
      date: isoDay(d.getTime() - (i % 20) * DAY),
    });
  }
  // Every album (the demo ones too) topped up to PHOTOS_PER_ALBUM photos.
  const albums = await database.select({ id: galleries.id }).from(galleries).orderBy(asc(galleries.id));
  for (const [a, album] of albums.entries()) {
    const [{ n, last }] = await database
      .select({ n: count(), last: max(galleryImages.position) })
      .from(galleryImages)
      .where(eq(galleryImages.galleryId, album.id));
    const rows = [];
    for (let k = n; k < PHOTOS_PER_ALBUM; k++) {
      // Each album starts elsewhere in the set, so covers differ.
      const photo = photos[(a * 7 + k) % photos.length];
      rows.push({
        galleryId: album.id,
        position: (last ?? -1) + 1 + (k - n),
        name: photo.key.slice(photo.key.lastIndexOf("/") + 1),
        imageKey: photo.key,
        width: photo.width,
        height: photo.height,
      });
    }
    if (rows.length) await database.insert(galleryImages).values(rows);
  }

  const [newestArticle] = await database
    .select({ id: articles.id })
    .from(articles)
    .orderBy(desc(articles.date), desc(articles.id))
    .limit(1);
  const [newestAlbum] = await database
    .select({ title: galleries.title })
    .from(galleries)
    .orderBy(desc(galleries.date), desc(galleries.id))
    .limit(1);
  const [{ n: articleCount }] = await database.select({ n: count() }).from(articles);
  const [{ n: albumCount }] = await database.select({ n: count() }).from(galleries);
  const [{ n: imageCount }] = await database.select({ n: count() }).from(galleryImages);

  // Average stored size per variant width, to describe the photos in the report.
  const sizes: Record<string, number> = {};
  const store = storage();
  for (const p of photos) {
    for (const w of ["large", ...variantWidths(p.width)]) {
      const key = w === "large" ? p.key : variantKey(p.key, w as number);
      const file = await store.get(key);
      if (!file) continue;
      file.body.destroy();
      sizes[String(w)] = (sizes[String(w)] ?? 0) + file.size / photos.length;
    }
  }
  await closeDb();
  process.stdout.write(
    `${JSON.stringify({
      articles: articleCount,
      albums: albumCount,
      galleryImages: imageCount,
      distinctPhotos: photos.length,
      photoSize: `${photos[0].width}×${photos[0].height}`,
      averageBytes: Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, Math.round(v)])),
      newestArticleId: newestArticle.id,
      newestAlbumTitle: newestAlbum.title,
    })}\n`,
  );
}

await main();
