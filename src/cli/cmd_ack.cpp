// benchguard ack | unack: a known change point stops (or starts again) failing the gate.
#include <fmt/format.h>

#include <algorithm>

#include "cli/app.hpp"
#include "cli/history_flags.hpp"
#include "core/names.hpp"

namespace benchguard::cli {
namespace {

Action add_ack_cmd(CLI::App& app, Context& ctx, bool ack) {
  auto* c = app.add_subcommand(ack ? "ack" : "unack",
                               ack ? "Acknowledge a change point: it no longer fails the gate"
                                   : "Take an acknowledgement back");
  auto id = std::make_shared<std::string>();
  auto reason = std::make_shared<std::string>();
  c->add_option("change", *id, "The change point's id or a unique prefix of it (from `detect`)")
      ->required();
  if (ack) c->add_option("--reason", *reason, "Why it is accepted");
  return [&ctx, id, reason, ack]() -> Result<int> {
    BG_TRY(check_name("change id", *id));
    if (!reason->empty()) BG_TRY(check_name("--reason", *reason));
    BG_ASSIGN(auto store, ctx.open_store());
    if (!ack) {
      // An acknowledgement may outlive its change point (detection moved it): the prefix is
      // looked up among the acknowledgements first.
      BG_ASSIGN(const auto acks, store->load_acks());
      std::vector<std::string> matches;
      for (const auto& a : acks)
        if (a.change_id == *id || a.change_id.starts_with(*id)) matches.push_back(a.change_id);
      if (std::ranges::find(matches, *id) != matches.end()) matches = {*id};
      if (matches.size() > 1)
        return Error{
            fmt::format("change id '{}' is ambiguous: {} acknowledgements start with it "
                        "({}, ...); give more of the id",
                        *id, matches.size(), matches.front())};
      if (matches.empty()) {
        BG_ASSIGN(const auto change, find_change(ctx.db_name(), *store, *id));
        ctx.out << fmt::format("{}: was not acknowledged\n", change.id);
        return 0;
      }
      BG_ASSIGN(bool removed, store->remove_ack(matches.front()));
      ctx.out << fmt::format("{}: {}\n", matches.front(),
                             removed ? "acknowledgement removed" : "was not acknowledged");
      return 0;
    }
    BG_ASSIGN(const auto change, find_change(ctx.db_name(), *store, *id));
    BG_ASSIGN(bool fresh, store->set_ack({change.id, *reason, now_ns()}));
    ctx.out << fmt::format("{}: {}\n", change.id, fresh ? "acknowledged" : "already acknowledged");
    return 0;
  };
}

}  // namespace

Action add_ack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, true);
}
Action add_unack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, false);
}

}  // namespace benchguard::cli
