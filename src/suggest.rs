//! "Did you mean" for misspelt names (providers, modes, mechanisms).

/// `"; did you mean `x`?"` for the known name closest to `word`, when one is
/// close (a few edits away, or `word` is the start of it); else empty.
pub(crate) fn did_you_mean(word: &str, known: &[&str]) -> String {
    let word = word.to_ascii_lowercase();
    let best = known
        .iter()
        .map(|k| (edits(&word, k), *k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(1) || (word.len() >= 3 && k.starts_with(word.as_str())))
        .min();
    best.map(|(_, k)| format!("; did you mean `{k}`?")).unwrap_or_default()
}

/// Levenshtein distance, counting a swap of neighbours as one edit.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev2: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, row);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn ok_close_names_are_suggested() {
        let known = ["openai", "gemini", "claude", "anthropic", "llamacpp", "output-format"];
        assert_eq!(did_you_mean("gemni", &known), "; did you mean `gemini`?");
        assert_eq!(did_you_mean("GEMNII", &known), "; did you mean `gemini`?");
        assert_eq!(did_you_mean("claud", &known), "; did you mean `claude`?");
        assert_eq!(did_you_mean("opnai", &known), "; did you mean `openai`?");
        assert_eq!(did_you_mean("llama", &known), "; did you mean `llamacpp`?", "a prefix");
        assert_eq!(did_you_mean("ouptut-format", &known), "; did you mean `output-format`?", "a swap");
        assert_eq!(did_you_mean("mistral", &known), "", "nothing close");
        assert_eq!(did_you_mean("", &known), "");
    }
}
