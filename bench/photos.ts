// Photo-like test pictures for the benchmark, as hard as a phone's: 12 MP
// JPEGs of about 6 MB. Flat gradients compress to a few kilobytes and would
// make page weights look better than real photos, so each picture is a busy
// scene (sky or hall, hills, trees, buildings, people, small things
// everywhere) with several octaves of texture and a phone sensor's noise on
// top. Their 640 px AVIF at the card quality weighs 24–26 KiB, as real
// grainy phone photos' do (issue 26); the smooth 1600 px pictures used
// before weighed 11 KiB. A seeded generator makes every run produce the same
// pictures.
import sharp from "sharp";

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

/** Small, fast, seedable PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = ReturnType<typeof rng>;
const between = (r: Rand, lo: number, hi: number) => lo + r() * (hi - lo);
const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360},${Math.round(s)}%,${Math.round(l)}%)`;

function person(r: Rand, x: number, ground: number, scale: number): string {
  const skin = hsl(between(r, 15, 35), between(r, 30, 60), between(r, 35, 80));
  const shirt = hsl(r() * 360, between(r, 20, 80), between(r, 20, 70));
  const trousers = hsl(between(r, 200, 240), between(r, 10, 40), between(r, 10, 35));
  const hair = hsl(between(r, 20, 40), between(r, 20, 60), between(r, 5, 45));
  const h = 330 * scale;
  const w = 90 * scale;
  return `<g>
  <rect x="${x - w * 0.35}" y="${ground - h * 0.45}" width="${w * 0.3}" height="${h * 0.45}" fill="${trousers}"/>
  <rect x="${x + w * 0.05}" y="${ground - h * 0.45}" width="${w * 0.3}" height="${h * 0.45}" fill="${trousers}"/>
  <rect x="${x - w / 2}" y="${ground - h * 0.85}" width="${w}" height="${h * 0.45}" rx="${w * 0.25}" fill="${shirt}"/>
  <circle cx="${x}" cy="${ground - h * 0.92}" r="${w * 0.3}" fill="${skin}"/>
  <path d="M${x - w * 0.3} ${ground - h * 0.93} a ${w * 0.3} ${w * 0.3} 0 0 1 ${w * 0.6} 0 z" fill="${hair}"/>
</g>`;
}

function outdoor(r: Rand, W: number, H: number): string {
  const hue = between(r, 190, 230);
  const parts: string[] = [];
  parts.push(`<defs>
  <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue, 60, between(r, 45, 65))}"/><stop offset="1" stop-color="${hsl(hue + 20, 50, between(r, 80, 92))}"/></linearGradient>
  <filter id="soft"><feGaussianBlur stdDeviation="${between(r, 4, 12)}"/></filter>
</defs>
<rect width="100%" height="100%" fill="url(#sky)"/>`);
  // Clouds, blurred like out-of-focus background (one filter for the group:
  // librsvg is slow at blurring many elements one by one).
  parts.push(`<g filter="url(#soft)">`);
  for (let i = 0; i < 14; i++) {
    parts.push(
      `<ellipse cx="${r() * W}" cy="${between(r, 0.05, 0.35) * H}" rx="${between(r, 60, 260)}" ry="${between(r, 25, 70)}" fill="white" opacity="${between(r, 0.4, 0.9)}"/>`,
    );
  }
  parts.push(`</g>`);
  // Two or three ranges of hills with wavy tops.
  const ranges = 2 + Math.floor(r() * 2);
  for (let k = 0; k < ranges; k++) {
    const base = H * (0.45 + k * 0.12);
    let d = `M0 ${base}`;
    for (let x = 0; x <= W; x += W / 12) d += ` L${x} ${base - between(r, 0, 90)}`;
    d += ` L${W} ${H} L0 ${H} Z`;
    parts.push(`<path d="${d}" fill="${hsl(between(r, 80, 140), between(r, 25, 55), 45 - k * 9)}"/>`);
  }
  // Buildings with windows.
  const houses = Math.floor(between(r, 2, 6));
  for (let i = 0; i < houses; i++) {
    const w = between(r, 120, 260);
    const h = between(r, 120, 300);
    const x = r() * (W - w);
    const y = H * 0.62 - h;
    parts.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${hsl(between(r, 20, 50), between(r, 10, 40), between(r, 55, 85))}"/>`,
    );
    parts.push(
      `<path d="M${x - 10} ${y} L${x + w / 2} ${y - h * 0.35} L${x + w + 10} ${y} Z" fill="${hsl(between(r, 0, 20), 50, between(r, 25, 40))}"/>`,
    );
    for (let wy = y + 20; wy < y + h - 40; wy += 55) {
      for (let wx = x + 15; wx < x + w - 35; wx += 50) {
        parts.push(`<rect x="${wx}" y="${wy}" width="26" height="32" fill="${hsl(210, 20, between(r, 15, 60))}"/>`);
      }
    }
  }
  // Trees: trunks and layered crowns.
  const trees = Math.floor(between(r, 8, 22));
  for (let i = 0; i < trees; i++) {
    const x = r() * W;
    const g = H * between(r, 0.55, 0.75);
    const s = between(r, 0.6, 1.6);
    parts.push(
      `<rect x="${x - 8 * s}" y="${g - 120 * s}" width="${16 * s}" height="${120 * s}" fill="${hsl(25, 40, between(r, 15, 30))}"/>`,
    );
    for (let j = 0; j < 6; j++) {
      parts.push(
        `<circle cx="${x + between(r, -50, 50) * s}" cy="${g - between(r, 120, 220) * s}" r="${between(r, 35, 70) * s}" fill="${hsl(between(r, 85, 135), between(r, 30, 65), between(r, 18, 42))}"/>`,
      );
    }
  }
  // People in the foreground, most of them near the middle.
  const people = Math.floor(between(r, 3, 14));
  for (let i = 0; i < people; i++) {
    parts.push(person(r, between(r, 0.05, 0.95) * W, H * between(r, 0.88, 1.02), between(r, 0.9, 1.7)));
  }
  return parts.join("\n");
}

function indoor(r: Rand, W: number, H: number): string {
  const wall = hsl(between(r, 20, 60), between(r, 10, 35), between(r, 60, 85));
  const parts: string[] = [];
  parts.push(`<defs>
  <radialGradient id="light" cx="${between(r, 0.3, 0.7)}" cy="0.2" r="0.8"><stop offset="0" stop-color="white" stop-opacity="0.7"/><stop offset="1" stop-color="black" stop-opacity="0.35"/></radialGradient>
  <filter id="soft"><feGaussianBlur stdDeviation="${between(r, 3, 8)}"/></filter>
</defs>
<rect width="100%" height="100%" fill="${wall}"/>
<rect y="${H * 0.7}" width="100%" height="${H * 0.3}" fill="${hsl(between(r, 20, 35), between(r, 30, 50), between(r, 25, 45))}"/>`);
  // Windows, a cross, a banner, a stage.
  parts.push(`<g filter="url(#soft)">`);
  for (let i = 0; i < 4; i++) {
    const x = W * (0.08 + i * 0.24) + between(r, -20, 20);
    parts.push(
      `<rect x="${x}" y="${H * 0.12}" width="${W * 0.12}" height="${H * 0.4}" rx="40" fill="${hsl(200, 40, between(r, 70, 90))}"/>`,
    );
  }
  parts.push(`</g>`);
  parts.push(
    `<rect x="${W * 0.49}" y="${H * 0.1}" width="${W * 0.02}" height="${H * 0.3}" fill="${hsl(30, 40, 30)}"/>`,
  );
  parts.push(
    `<rect x="${W * 0.44}" y="${H * 0.17}" width="${W * 0.12}" height="${H * 0.025}" fill="${hsl(30, 40, 30)}"/>`,
  );
  parts.push(
    `<rect x="${W * 0.2}" y="${H * 0.55}" width="${W * 0.6}" height="${H * 0.15}" fill="${hsl(between(r, 0, 40), 40, 30)}"/>`,
  );
  // Musicians' instruments and stands as scattered shapes.
  for (let i = 0; i < 30; i++) {
    parts.push(
      `<rect x="${r() * W}" y="${between(r, 0.45, 0.7) * H}" width="${between(r, 8, 60)}" height="${between(r, 20, 160)}" fill="${hsl(r() * 360, between(r, 0, 50), between(r, 10, 60))}" transform="rotate(${between(r, -30, 30)})"/>`,
    );
  }
  // Rows of people seen from behind and from the side.
  for (let row = 0; row < 4; row++) {
    const g = H * (0.82 + row * 0.07);
    const scale = 0.9 + row * 0.25;
    for (let x = between(r, -40, 40); x < W + 60; x += between(r, 90, 170) * scale) {
      parts.push(person(r, x, g + H * 0.25, scale));
    }
  }
  parts.push(`<rect width="100%" height="100%" fill="url(#light)"/>`);
  return parts.join("\n");
}

/**
 * Small things everywhere a photo has them (leaves, grass, gravel, faces in a
 * crowd): marks of a few pixels, lighter or darker than what they lie on.
 * Their edges are what a photo's small files spend their bytes on.
 */
function clutter(r: Rand, W: number, H: number, count: number, top: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const light = r() < 0.5;
    parts.push(
      `<ellipse cx="${(r() * W).toFixed(1)}" cy="${between(r, top, 1) * H}" rx="${between(r, 1, 5).toFixed(1)}" ry="${between(r, 1, 4).toFixed(1)}" fill="${light ? "white" : "black"}" opacity="${between(r, 0.1, 0.6).toFixed(2)}"/>`,
    );
  }
  return parts.join("");
}

/**
 * Texture at several scales: blotches (light and shade), foliage-sized
 * detail and fine texture, like a photo's content. Drawn small and enlarged
 * (smooth); mostly brightness, a little colour.
 */
async function textureLayer(
  r: Rand,
  W: number,
  H: number,
  cell: number,
  amplitude: number,
  colour = 0.4,
): Promise<Buffer> {
  const w = Math.ceil(W / cell);
  const h = Math.ceil(H / cell);
  const small = Buffer.alloc(w * h * 3);
  for (let i = 0; i < small.length; i += 3) {
    const v = (r() - 0.5) * 2 * amplitude;
    small[i] = 128 + v + (r() - 0.5) * amplitude * colour;
    small[i + 1] = 128 + v + (r() - 0.5) * amplitude * colour;
    small[i + 2] = 128 + v + (r() - 0.5) * amplitude * colour;
  }
  return sharp(small, { raw: { width: w, height: h, channels: 3 } })
    .resize(W, H, { kernel: "cubic", fit: "fill" })
    .raw()
    .toBuffer();
}

/** About normal (mean 0, deviation 1): the sum of three uniform draws, rescaled. */
const normal = (r: Rand) => (r() + r() + r() - 1.5) * 2;

/**
 * A phone camera's sensor noise, in 8-bit levels: grain in brightness at
 * every pixel, colour noise in blotches of two pixels, and the mottle a
 * phone's noise reduction leaves (blotches of eight pixels, mostly
 * brightness), which is what survives down to a card's size.
 */
export const GRAIN = { luma: 10, chroma: 5, chromaCell: 2, mottle: 24, mottleCell: 8 } as const;

/**
 * A photo-like JPEG as a phone's camera writes it (12 MP, quality 92), the
 * same for the same index on every run. The scene is drawn at 1600×1200 and
 * enlarged (a phone's lens and processing soften edges too); texture and
 * noise are added at the full size.
 */
export async function benchPhoto(index: number, W = PHOTO_WIDTH, H = PHOTO_HEIGHT): Promise<Buffer> {
  const r = rng(0x5eed + index * 7919);
  const [SW, SH] = [1600, 1200];
  const body = (index % 3 === 2 ? indoor(r, SW, SH) : outdoor(r, SW, SH)) + clutter(r, SW, SH, 30000, 0.1);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SW}" height="${SH}">${body}</svg>`;
  const drawn = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const scene = await sharp(drawn, { raw: { width: SW, height: SH, channels: 3 } })
    .resize(W, H, { kernel: "lanczos3", fit: "fill" })
    .raw()
    .toBuffer();
  const k = W / SW;
  const [blotches, detail, fine, texture, mottle] = await Promise.all([
    textureLayer(r, W, H, Math.round(64 * k), 22),
    textureLayer(r, W, H, Math.round(12 * k), 20),
    textureLayer(r, W, H, Math.round(3 * k), 45),
    textureLayer(r, W, H, 2, 8),
    textureLayer(r, W, H, GRAIN.mottleCell, GRAIN.mottle, 0.5),
  ]);
  const cw = Math.ceil(W / GRAIN.chromaCell);
  const chroma = new Float32Array(cw * Math.ceil(H / GRAIN.chromaCell) * 3);
  for (let i = 0; i < chroma.length; i++) chroma[i] = normal(r) * GRAIN.chroma;
  const out = Buffer.alloc(scene.length);
  for (let y = 0, i = 0; y < H; y++) {
    const row = ((y / GRAIN.chromaCell) | 0) * cw;
    for (let x = 0; x < W; x++, i += 3) {
      const luma = normal(r) * GRAIN.luma;
      const c = (row + ((x / GRAIN.chromaCell) | 0)) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const j = i + ch;
        const v = scene[j] + blotches[j] + detail[j] + fine[j] + texture[j] + mottle[j] - 640 + luma + chroma[c + ch];
        out[j] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return sharp(out, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
