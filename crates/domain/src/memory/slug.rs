//! Memory slugs: an entry's file name, made from its title. Only `[a-z0-9-]`, so a slug
//! from an agent can never name a path outside `.ideai/memory/`.

/// Longest slug, in characters.
pub const MAX_SLUG_CHARS: usize = 64;

/// The slug of a title: lowercase ASCII letters and digits, any other run as one `-`,
/// common accented letters without their accent (`é` → `e`), other letters dropped; at most
/// 64 characters (cut at a `-` when there is one); `note` when nothing is left.
pub fn memory_slug(title: &str) -> String {
    let mut slug = String::new();
    let mut gap = false;
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            push(&mut slug, &mut gap, c.encode_utf8(&mut [0; 4]));
        } else if c.is_alphanumeric() || is_combining_mark(c) {
            // Other scripts' letters (and accents written apart) go without leaving a gap.
            if let Some(text) = transliterate(c) {
                push(&mut slug, &mut gap, text);
            }
        } else {
            gap = true;
        }
    }
    let slug = cut(&slug);
    if slug.is_empty() {
        "note".to_owned()
    } else {
        slug.to_owned()
    }
}

/// Whether `slug` is one [`memory_slug`] could give: `[a-z0-9-]`, 1–64 characters, no `-`
/// at either end. Anything else (`..`, `/`, `\`) is refused before it reaches a path.
pub fn valid_memory_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= MAX_SLUG_CHARS
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Appends a word, after one `-` when something came between it and the previous word.
fn push(slug: &mut String, gap: &mut bool, text: &str) {
    if *gap && !slug.is_empty() {
        slug.push('-');
    }
    *gap = false;
    slug.push_str(text);
}

/// At most [`MAX_SLUG_CHARS`] (all ASCII here), at the last `-` inside the limit if any.
fn cut(slug: &str) -> &str {
    if slug.len() <= MAX_SLUG_CHARS {
        return slug;
    }
    if slug.as_bytes().get(MAX_SLUG_CHARS) == Some(&b'-') {
        return &slug[..MAX_SLUG_CHARS];
    }
    let head = &slug[..MAX_SLUG_CHARS];
    match head.rfind('-') {
        Some(pos) if pos > 0 => &head[..pos],
        _ => head,
    }
}

/// Accents written as their own character (`e` + `\u{301}`).
fn is_combining_mark(c: char) -> bool {
    ('\u{300}'..='\u{36F}').contains(&c)
}

fn transliterate(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ł' | 'ľ' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ß' => "ss",
        'ť' | 'ţ' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}
