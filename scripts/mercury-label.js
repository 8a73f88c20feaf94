// Label pages with Mercury Parser's own extractors: reads [{file, url}, ...] as JSON on stdin,
// writes one JSON object a line (file, title, author, date_published, content) to stdout.
// Run by newscrawl.evaluation.mercury with the unpacked package's directory as argument.
const fs = require('fs');
const path = require('path');

const Mercury = require(path.join(process.argv[2], 'dist', 'mercury.js'));

(async () => {
  const jobs = JSON.parse(fs.readFileSync(0, 'utf8'));
  for (const { file, url } of jobs) {
    let result;
    try {
      // 1.1.1's signature: parse(url, html, options); fallback off, so only pages a
      // site-specific extractor claims are labelled.
      result = await Mercury.parse(url, fs.readFileSync(file, 'utf8'), { fallback: false });
    } catch (error) {
      result = { error: String(error) };
    }
    process.stdout.write(JSON.stringify({ file, ...result }) + '\n');
  }
})();
