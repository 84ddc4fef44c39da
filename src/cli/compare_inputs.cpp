#include "cli/compare_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "vcs/git.hpp"

namespace benchguard::cli {

namespace {

std::vector<std::string> variant_names(const RunData& run) {
  std::vector<std::string> names;
  for (const auto& v : run.variants)
    if (std::find(names.begin(), names.end(), v.variant.name) == names.end())
      names.push_back(v.variant.name);
  return names;
}

// One variant per benchmark: the named one, or the first.
analysis::Side side_of(const RunData& run, const std::string& variant, const std::string& label) {
  analysis::Side s;
  s.label = label;
  for (const auto& v : run.variants) {
    if (!variant.empty() && v.variant.name != variant) continue;
    const bool seen = std::any_of(s.variants.begin(), s.variants.end(), [&](const auto* x) {
      return x->variant.benchmark == v.variant.benchmark;
    });
    if (!seen) s.variants.push_back(&v);
  }
  return s;
}

std::string short_run(const RunData& r) {
  std::string s = "run " + r.run.uuid.substr(0, 8);
  if (!r.run.git_commit.empty()) s += " @" + r.run.git_commit.substr(0, 10);
  return s;
}

bool looks_like_commit(const std::string& s) {
  return s.size() >= 4 && s.size() <= 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

// The newest run matching a predicate over the run list.
template <class Pred>
Result<RunData> latest_where(store::Store& store, Pred pred, const std::string& what) {
  BG_ASSIGN(const auto runs, store.list_runs());
  for (const auto& r : runs)  // newest first
    if (pred(r)) return store.load_run(r.uuid);
  return Error{"no run " + what};
}

}  // namespace

Result<RunData> resolve_run(const Context& ctx, store::Store& store, const std::string& ref) {
  namespace fs = std::filesystem;
  if (ref.size() > 3 && (ref.ends_with(".db") || ref.ends_with(".sqlite")) && fs::exists(ref)) {
    store::OpenOptions o;
    o.create = false;
    BG_ASSIGN(auto other, store::open_store(ref, o));
    return other->load_run("latest");
  }
  if (const auto eq = ref.find('='); eq != std::string::npos) {
    const std::string k = ref.substr(0, eq), v = ref.substr(eq + 1);
    return latest_where(
        store,
        [&](const store::RunSummary& r) {
          return std::any_of(r.labels.begin(), r.labels.end(),
                             [&](const auto& kv) { return kv.first == k && kv.second == v; });
        },
        "labelled " + ref + " in " + ctx.globals.db);
  }
  auto direct = store.load_run(ref);
  if (direct.ok()) return direct;
  // A commit: as given, or as git resolves it (branch, tag, HEAD~2) in the current directory.
  std::string commit = looks_like_commit(ref) ? ref : "";
  if (commit.empty()) commit = vcs::rev_parse(std::filesystem::current_path().string(), ref);
  if (!commit.empty()) {
    auto at = latest_where(
        store, [&](const store::RunSummary& r) { return r.git_commit.starts_with(commit); },
        "at commit " + commit.substr(0, 12) + " in " + ctx.globals.db);
    if (at.ok() || looks_like_commit(ref)) return at;
  }
  return Error{
      fmt::format("'{}' is not a run, variant, KEY=VALUE label, commit or database file "
                  "(see `benchguard runs`)",
                  ref)};
}

Result<CompareInputs> resolve_compare_inputs(const Context& ctx, store::Store& store,
                                             const std::vector<std::string>& refs,
                                             const std::string& variant_a,
                                             const std::string& variant_b) {
  CompareInputs in;
  if (refs.size() > 2) return Error{"compare takes at most two references"};

  // Variants of one run: no reference, one run, or two variant names of the latest run.
  auto one_run_variants = [&](RunData run, std::string va,
                              std::string vb) -> Result<CompareInputs> {
    const auto names = variant_names(run);
    if (va.empty() && vb.empty()) {
      if (names.size() < 2)
        return Error{fmt::format("{} has one variant; name two runs, labels or commits to compare",
                                 short_run(run))};
      va = names[0];
      vb = names[1];
    }
    for (const auto& n : {va, vb})
      if (std::find(names.begin(), names.end(), n) == names.end())
        return Error{fmt::format("{} has no variant '{}'", short_run(run), n)};
    in.runs.push_back(std::make_unique<RunData>(std::move(run)));
    const RunData& r = *in.runs.back();
    in.a = side_of(r, va, va);
    in.b = side_of(r, vb, vb);
    in.description = fmt::format("{} vs {} in {}", va, vb, short_run(r));
    return std::move(in);
  };

  if (refs.empty()) {
    BG_ASSIGN(RunData run, store.load_run("latest"));
    return one_run_variants(std::move(run), variant_a, variant_b);
  }
  if (refs.size() == 1) {
    BG_ASSIGN(RunData run, resolve_run(ctx, store, refs[0]));
    return one_run_variants(std::move(run), variant_a, variant_b);
  }
  if (auto latest = store.load_run("latest"); latest.ok()) {
    const auto names = variant_names(*latest);
    auto has = [&](const std::string& n) {
      return std::find(names.begin(), names.end(), n) != names.end();
    };
    if (has(refs[0]) && has(refs[1])) return one_run_variants(std::move(*latest), refs[0], refs[1]);
  }
  BG_ASSIGN(RunData ra, resolve_run(ctx, store, refs[0]));
  BG_ASSIGN(RunData rb, resolve_run(ctx, store, refs[1]));
  in.runs.push_back(std::make_unique<RunData>(std::move(ra)));
  in.runs.push_back(std::make_unique<RunData>(std::move(rb)));
  in.a = side_of(*in.runs[0], variant_a, refs[0]);
  in.b = side_of(*in.runs[1], variant_b, refs[1]);
  in.description = fmt::format("{} ({}) vs {} ({})", refs[0], short_run(*in.runs[0]), refs[1],
                               short_run(*in.runs[1]));
  return in;
}

}  // namespace benchguard::cli
