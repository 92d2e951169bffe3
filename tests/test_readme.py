"""README's findings are generated from the committed full-run results, never typed."""

from sparseact.statements import README_END, README_START, readme_summary, readme_with_summary


def test_readme_summary_matches_the_committed_results(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    assert README_START in readme and README_END in readme
    regenerated = readme_with_summary(readme, readme_summary(repo_root / "results"))
    assert readme == regenerated, "README's summary disagrees with results/: run `sparseact readme-summary`"


def test_committed_certificates_match_the_committed_ledger(repo_root):
    import pandas as pd

    ledger = pd.read_csv(repo_root / "results" / "ledger.csv", keep_default_na=False)
    expected = {path for path in ledger["certificate"] if path}
    present = {str(p.relative_to(repo_root)) for p in (repo_root / "results" / "certificates").rglob("*.json")}
    assert expected == present
