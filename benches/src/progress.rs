//! Progress of long runs on a terminal (indicatif): a bar per system showing how many
//! workloads or sizes are done, with the per-item result lines printed above it. When stderr
//! is not a terminal (CI logs, a bundle's log files) the bar draws nothing and the lines are
//! printed as plain stderr lines, so logs stay readable.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `len` items, or plain lines where no terminal is attached.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar titled `title` over `len` items, drawn on stderr when it is a terminal.
    pub fn new(len: usize, title: &str) -> Progress {
        let bar = ProgressBar::new(len as u64);
        let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(title.to_string());
        Progress { bar }
    }

    /// Prints a line on stderr above the bar (plainly when the bar is hidden).
    pub fn line(&self, text: &str) {
        self.bar.suspend(|| eprintln!("{text}"));
    }

    /// One more item done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Removes the bar (the printed lines stay).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn counts_items() {
        let p = Progress::new(3, "test");
        p.inc();
        p.line("one done");
        p.inc();
        assert_eq!(p.bar.position(), 2);
        p.finish();
        assert!(p.bar.is_finished());
    }
}
