// A plain-text table for people: a header row, then rows, columns padded
// to their widest cell, numbers right-aligned.

#ifndef MANCALA_CLIENT_TABLE_H_
#define MANCALA_CLIENT_TABLE_H_

#include <ostream>
#include <string>
#include <vector>

namespace mancala::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  void Add(std::vector<std::string> row);  // As many cells as headers.
  bool empty() const { return rows_.empty(); }
  void Print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// `value` with `decimals` digits after the point ("1512.3").
std::string Fixed(double value, int decimals = 1);

}  // namespace mancala::cli

#endif  // MANCALA_CLIENT_TABLE_H_
